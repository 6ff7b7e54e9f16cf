import type { $ZodError } from 'zod/v4/core';
import type { Issue } from './errors.js';
import { invalidPlant as invalid } from './new-plant.js';
import { Int64Schema, NewPlantSchema, PatchSchema, PlantBodySchema, type NewPlant } from './schemas.js';
import type { Patch } from './store.js';

function issuesOf(error: $ZodError): Issue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length === 0 ? 'body' : issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** A NewPlant from parsed JSON, or a PlantsError that lists every problem, each with its field. */
export function parseNewPlant(input: unknown): NewPlant {
  const result = NewPlantSchema.safeParse(input);
  if (!result.success) throw invalid(issuesOf(result.error));
  return stripUndefined(result.data);
}

function stripUndefined(plant: { id: bigint; name: string; tag?: string | undefined }): NewPlant {
  return plant.tag === undefined ? { id: plant.id, name: plant.name } : { id: plant.id, name: plant.name, tag: plant.tag };
}

/** The id of an input that may be invalid otherwise, when the id itself is a valid int64. */
export function readableId(input: unknown): bigint | undefined {
  if (typeof input !== 'object' || input === null || !('id' in input)) return undefined;
  const id = Int64Schema.safeParse(input.id);
  return id.success ? id.data : undefined;
}

/** The id a body gives, where the path gives one already: it must be that one. */
function sameId(given: bigint | undefined, id: bigint): void {
  if (given !== undefined && given !== id) throw invalid([{ path: 'id', message: `must be ${id}, the id in the path, or left out, got ${given}` }]);
}

/** The plant a PUT body gives for the id of its path: a Plant, checked as a create's fields are. */
export function parsePlantBody(input: unknown, id: bigint): NewPlant {
  const result = PlantBodySchema.safeParse(input);
  if (!result.success) throw invalid(issuesOf(result.error));
  sameId(result.data.id, id);
  return stripUndefined({ ...result.data, id });
}

/** The change a JSON Merge Patch gives (or a command line's flags): a name, a tag, or none (null). */
export function parsePatch(input: unknown, id: bigint): Pick<Patch, 'name' | 'tag'> {
  const result = PatchSchema.safeParse(input);
  if (!result.success) throw invalid(issuesOf(result.error));
  sameId(result.data.id, id);
  const { name, tag } = result.data;
  return { ...(name === undefined ? {} : { name }), ...(tag === undefined ? {} : { tag }) };
}
