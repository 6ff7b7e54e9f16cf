import { isProblem, readInt64 } from './fields.js';
import { checkNewPlant, invalidPlant as invalid } from './new-plant.js';
import { PATCH, PLANT_BODY, type NewPlant } from './schemas.js';
import { checkShape } from './shapes.js';
import type { Patch } from './store.js';

/** A NewPlant from parsed JSON, or a PlantsError that lists every problem, each with its field. */
export function parseNewPlant(input: unknown): NewPlant {
  const { plant, issues } = checkNewPlant(input);
  if (issues !== undefined) throw invalid(issues);
  return plant;
}

/** The id of an input that may be invalid otherwise, when the id itself is a valid int64. */
export function readableId(input: unknown): bigint | undefined {
  if (typeof input !== 'object' || input === null || !('id' in input)) return undefined;
  const id = readInt64(input.id);
  return isProblem(id) ? undefined : id;
}

/** The id a body gives, where the path gives one already: it must be that one. */
function sameId(given: bigint | undefined, id: bigint): void {
  if (given !== undefined && given !== id) throw invalid([{ path: 'id', message: `must be ${id}, the id in the path, or left out, got ${given}` }]);
}

/** The plant a PUT body gives for the id of its path: a Plant, checked as a create's fields are. */
export function parsePlantBody(input: unknown, id: bigint): NewPlant {
  const { value, issues } = checkShape(PLANT_BODY, input);
  if (issues !== undefined) throw invalid(issues);
  sameId(value.id, id);
  const { name, tag } = value;
  return tag === undefined ? { id, name } : { id, name, tag };
}

/** The change a JSON Merge Patch gives (or a command line's flags): a name, a tag, or none (null). */
export function parsePatch(input: unknown, id: bigint): Pick<Patch, 'name' | 'tag'> {
  const { value, issues } = checkShape(PATCH, input);
  if (issues !== undefined) throw invalid(issues);
  sameId(value.id, id);
  const { name, tag } = value;
  return { ...(name === undefined ? {} : { name }), ...(tag === undefined ? {} : { tag }) };
}
