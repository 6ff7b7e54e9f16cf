import { PlantsError, type Issue } from './errors.js';
import { isJsonObject, isProblem, notAnObject, readDecimalInt64, readInt64, readText, type Problem } from './fields.js';
import type { NewPlant } from './schemas.js';

type Checked = { plant: NewPlant; issues?: undefined } | { issues: Issue[]; plant?: undefined };

/**
 * A NewPlant from parsed JSON, checked by the field rules directly: what NewPlantSchema decides,
 * with the same issues in the same order (test/core/new-plant.test.ts holds the two to each
 * other), but without loading zod, for the lines of a store and of a request body.
 */
export function checkNewPlant(value: unknown): Checked {
  if (!isJsonObject(value)) return { issues: [{ path: 'body', message: notAnObject(value) }] };
  return checkFields(value, readInt64);
}

/**
 * A NewPlant from text fields (flags, CSV cells), the id written in base-10 digits, or a
 * PlantsError that lists every problem, each with its field: what NewPlantTextSchema decides
 * (held to it as checkNewPlant is), without loading zod, which a create would load for it alone.
 */
export function parseNewPlantText(input: { id?: string | undefined; name?: string | undefined; tag?: string | undefined }): NewPlant {
  const { plant, issues } = checkFields(input, readDecimalInt64);
  if (issues !== undefined) throw invalidPlant(issues);
  return plant;
}

function checkFields(value: Record<string, unknown>, readId: (value: unknown) => bigint | Problem): Checked {
  const issues: Issue[] = [];
  const id = readId(value.id);
  if (isProblem(id)) issues.push({ path: 'id', message: id.problem });
  const name = readText(value.name);
  if (isProblem(name)) issues.push({ path: 'name', message: name.problem });
  const tag = value.tag === undefined ? undefined : readText(value.tag);
  if (isProblem(tag)) issues.push({ path: 'tag', message: tag.problem });
  if (isProblem(id) || isProblem(name) || isProblem(tag)) return { issues };
  return { plant: tag === undefined ? { id, name } : { id, name, tag } };
}

/** The error of an invalid plant: every problem, each with its field. */
export function invalidPlant(issues: Issue[]): PlantsError {
  const summary = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
  return new PlantsError('invalid_plant', `invalid plant: ${summary}`, { issues });
}
