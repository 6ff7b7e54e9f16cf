import { checkNewPlant, invalidPlant as invalid, issuesOf, withoutUndefined } from './new-plant.js';
import { Int64Schema, PatchSchema, PlantBodySchema, type NewPlant } from './schemas.js';
import type { Patch } from './store.js';

/** A NewPlant from parsed JSON, or a PlantsError that lists every problem, each with its field. */
export function parseNewPlant(input: unknown): NewPlant {
  const { plant, invalid: error } = checkNewPlant(input);
  if (error !== undefined) throw error;
  return plant;
}

/** The id of an input that may be invalid otherwise, when the id itself is a valid int64. */
export function readableId(input: unknown): bigint | undefined {
  if (typeof input !== 'object' || input === null || !('id' in input)) return undefined;
  const id = Int64Schema.safeParse(input.id);
  return id.success ? id.data : undefined;
}

/** The id a body gives, where the path gives one already: it must be that one. */
function sameId(given: bigint | undefined, id: bigint): void {
  if (given !== undefined && given !== id)
    throw invalid([{ path: 'id', message: `must be ${id}, the id in the path, or left out, got ${given}` }]);
}

/** The plant a PUT body gives for the id of its path: a Plant, checked as a create's fields are. */
export function parsePlantBody(input: unknown, id: bigint): NewPlant {
  const result = PlantBodySchema.safeParse(input);
  if (!result.success) throw invalid(issuesOf(result.error));
  sameId(result.data.id, id);
  return withoutUndefined({ ...result.data, id });
}

/** The change a JSON Merge Patch gives (or a command line's flags): a name, a tag, or none (null). */
export function parsePatch(input: unknown, id: bigint): Pick<Patch, 'name' | 'tag'> {
  const result = PatchSchema.safeParse(input);
  if (!result.success) throw invalid(issuesOf(result.error));
  sameId(result.data.id, id);
  const { name, tag } = result.data;
  return { ...(name === undefined ? {} : { name }), ...(tag === undefined ? {} : { tag }) };
}
