import { PlantsError, type Issue } from './errors.js';
import { isJsonObject, isProblem, notAnObject, readInt64, readText } from './fields.js';
import type { NewPlant } from './schemas.js';

/**
 * A NewPlant from parsed JSON, checked by the field rules directly: what NewPlantSchema decides,
 * with the same issues in the same order (test/core/new-plant.test.ts holds the two to each
 * other), but without loading zod, for the lines of a store and of a request body.
 */
export function checkNewPlant(value: unknown): { plant: NewPlant; issues?: undefined } | { issues: Issue[]; plant?: undefined } {
  if (!isJsonObject(value)) return { issues: [{ path: 'body', message: notAnObject(value) }] };
  const issues: Issue[] = [];
  const id = readInt64(value.id);
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
