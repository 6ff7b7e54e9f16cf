import { PlantsError, type Issue } from './errors.js';
import { NEW_PLANT, NEW_PLANT_TEXT, type NewPlant } from './schemas.js';
import { checkShape } from './shapes.js';

type Checked = { plant: NewPlant; issues?: undefined } | { issues: Issue[]; plant?: undefined };

/** A NewPlant from parsed JSON (a request's body, a store's line, an import's row), or its problems. */
export function checkNewPlant(value: unknown): Checked {
  const { value: plant, issues } = checkShape(NEW_PLANT, value);
  return plant === undefined ? { issues } : { plant };
}

/**
 * A NewPlant from text fields (flags, CSV cells), the id written in base-10 digits, or a
 * PlantsError that lists every problem, each with its field.
 */
export function parseNewPlantText(input: { id?: string | undefined; name?: string | undefined; tag?: string | undefined }): NewPlant {
  const { value, issues } = checkShape(NEW_PLANT_TEXT, input);
  if (issues !== undefined) throw invalidPlant(issues);
  return value;
}

/** The error of an invalid plant: every problem, each with its field. */
export function invalidPlant(issues: Issue[]): PlantsError {
  const summary = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
  return new PlantsError('invalid_plant', `invalid plant: ${summary}`, { issues });
}
