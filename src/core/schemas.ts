// zod/mini: the same validation as zod's classic API at a fraction of its start-up cost, which
// every create pays (docs/performance.md).
import * as z from 'zod/mini';
import { INT32_MAX, INT32_MIN } from './int64.js';
import { describe, isJsonObject, jsonInteger, notAString, notAnObject, readDecimalInt64, readInt64, TEXT_TOO_LONG, withinLimit, type Problem } from './fields.js';

export { LIMITS } from './fields.js';

/** A field read by `read`, which returns the value or the message of what is wrong with it. */
function field<T>(read: (value: unknown) => T | Problem) {
  return z.pipe(
    z.unknown(),
    z.transform((value, ctx) => {
      const result = read(value);
      if (typeof result === 'object' && result !== null && 'problem' in result) {
        ctx.issues.push({ code: 'custom', message: result.problem, input: value });
        return undefined as T;
      }
      return result as T;
    }),
  );
}

/** An int64 typed as text (a flag, a CSV cell): base-10 digits only. */
export const DecimalInt64Schema = field(readDecimalInt64);

/** A name or a tag: a string, as the JSON Schema of it says (test/server/openapi.test.ts reads it). */
function text() {
  return z.string({ error: (issue) => notAString(issue.input) }).check(z.refine(withinLimit, TEXT_TOO_LONG));
}

const jsonObject = z.custom<Record<string, unknown>>(isJsonObject, { error: (issue) => notAnObject(issue.input) });

export const Int64Schema = field(readInt64);

/** The body that creates a plant. Fields the contract does not name are dropped. */
export const NewPlantSchema = z.pipe(jsonObject, z.object({ id: Int64Schema, name: text(), tag: z.optional(text()) }));

/**
 * The same NewPlant, typed as text: command-line flags and CSV cells. What parseNewPlantText
 * (new-plant.ts) decides by the field rules, held to this schema by test/core/new-plant.test.ts.
 */
export const NewPlantTextSchema = z.pipe(jsonObject, z.object({ id: DecimalInt64Schema, name: text(), tag: z.optional(text()) }));

/**
 * The body that replaces a plant (PUT /plants/{id}): a Plant, checked as a NewPlant's fields are.
 * An id is not needed (the path gives it); one given is checked, for the path's to be compared.
 */
export const PlantBodySchema = z.pipe(jsonObject, z.object({ id: z.optional(Int64Schema), name: text(), tag: z.optional(text()) }));

/** A tag a patch gives: a new one, or null for none. */
const PatchTagSchema = field((value): string | null | { problem: string } => {
  if (value === null) return null;
  if (typeof value !== 'string') return { problem: `must be a string, or null for no tag, got ${describe(value)}` };
  return withinLimit(value) ? value : { problem: TEXT_TOO_LONG };
});

/**
 * A JSON Merge Patch of a plant (RFC 7396): the fields it gives change, `"tag": null` removes the
 * tag; a name cannot be removed (`"name": null` is refused as a create refuses it). Fields the
 * contract does not name are dropped, as a NewPlant's are; an id given is checked, for the path's.
 */
export const PatchSchema = z.pipe(jsonObject, z.object({ id: z.optional(Int64Schema), name: z.optional(text()), tag: z.optional(PatchTagSchema) }));

/** The 200 answer: a Plant. Loose on purpose: only the contract's types are checked in answers we read. */
export const PlantSchema = z.pipe(jsonObject, z.object({ name: z.string(), tag: z.optional(z.string()) }));

/** The 400 answer. */
export const ErrorBodySchema = z.pipe(jsonObject, z.object({ error: z.pipe(field(jsonInteger(INT32_MIN, INT32_MAX)), z.transform(Number)), message: z.string() }));

export type NewPlant = z.output<typeof NewPlantSchema>;
export type PlantChange = z.output<typeof PatchSchema>;
export type Plant = z.output<typeof PlantSchema>;
export type ErrorBody = z.output<typeof ErrorBodySchema>;
