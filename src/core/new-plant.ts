import type { $ZodError } from 'zod/v4/core';
import { PlantsError, type Issue } from './errors.js';
import { NewPlantSchema, NewPlantTextSchema, type NewPlant } from './schemas.js';

/** A NewPlant, or the error that names each of its problems. */
export type CheckedPlant = { plant: NewPlant; invalid?: undefined } | { invalid: PlantsError; plant?: undefined };

/** zod's issues as ours: each with its field (`body` for the whole), in the schema's order. */
export function issuesOf(error: $ZodError): Issue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length === 0 ? 'body' : issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** A NewPlant from parsed JSON (a request's body, a store's line, an import's row), or its problems. */
export function checkNewPlant(value: unknown): CheckedPlant {
  const result = NewPlantSchema.safeParse(value);
  return result.success ? { plant: withoutUndefined(result.data) } : { invalid: invalidPlant(issuesOf(result.error)) };
}

/**
 * A NewPlant from text fields (flags, CSV cells), the id written in base-10 digits, or a
 * PlantsError that lists every problem, each with its field.
 */
export function parseNewPlantText(input: {
  id?: string | undefined;
  name?: string | undefined;
  tag?: string | undefined;
}): NewPlant {
  const result = NewPlantTextSchema.safeParse(input);
  if (!result.success) throw invalidPlant(issuesOf(result.error));
  return withoutUndefined(result.data);
}

/** A plant with no `tag` key where it has no tag (zod keeps a key given as undefined). */
export function withoutUndefined({ id, name, tag }: { id: bigint; name: string; tag?: string | undefined }): NewPlant {
  return tag === undefined ? { id, name } : { id, name, tag };
}

/** The error of an invalid plant: every problem, each with its field. */
export function invalidPlant(issues: Issue[]): PlantsError {
  const summary = issues.map((issue) => `${issue.path} ${issue.message}`).join('; ');
  return new PlantsError('invalid_plant', `invalid plant: ${summary}`, { issues });
}
