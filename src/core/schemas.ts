// zod/mini: the same validation as zod's classic API at a fraction of its start-up cost, which
// every command that reads or writes a plant pays (docs/performance.md). A store's canonical lines
// are read without running it (plant-json.ts); a line in any other form is checked by it.
import * as z from 'zod/mini';
import { INT32_MAX, INT32_MIN } from './int64.js';
import { describe, isJsonObject, isProblem, jsonInteger, notAString, notAnObject, type Problem } from './fields.js';
import { readDecimalInt64, readInt64, TEXT_TOO_LONG, withinLimit } from './fields.js';

export { LIMITS } from './fields.js';

/**
 * The contract's shapes, each defined once, here, and checked through these schemas wherever it is
 * read: a request's body, a store's line, an import's row, a command line's flags, a service's
 * answer. Their messages are the field rules' (fields.ts); openapi.json documents the shapes
 * (test/server/openapi.test.ts holds it to these schemas).
 */

/** A field read by `read`, which returns the value or the message of what is wrong with it. */
function field<T>(read: (value: unknown) => T | Problem) {
  return z.transform((value: unknown, ctx) => {
    const result = read(value);
    if (!isProblem(result)) return result;
    ctx.issues.push({ code: 'custom', message: result.problem, input: value });
    return undefined as T;
  });
}

/** An int64 typed as text (a flag, a CSV cell): base-10 digits only. */
const DecimalInt64Schema = field(readDecimalInt64);

/** A name or a tag: a string, as the JSON Schema of it says (test/server/openapi.test.ts reads it). */
function text() {
  return z.string({ error: (issue) => notAString(issue.input) }).check(z.refine(withinLimit, TEXT_TOO_LONG));
}

const jsonObject = z.custom<Record<string, unknown>>(isJsonObject, { error: (issue) => notAnObject(issue.input) });

export const Int64Schema = field(readInt64);

/** The body that creates a plant. Fields the contract does not name are dropped. */
export const NewPlantSchema = z.pipe(jsonObject, z.object({ id: Int64Schema, name: text(), tag: z.optional(text()) }));

/** The same NewPlant, typed as text: command-line flags and CSV cells, the id in base-10 digits. */
export const NewPlantTextSchema = z.pipe(
  jsonObject,
  z.object({ id: DecimalInt64Schema, name: text(), tag: z.optional(text()) }),
);

/**
 * The body that replaces a plant (PUT /plants/{id}): a Plant, checked as a NewPlant's fields are.
 * An id is not needed (the path gives it); one given is checked, for the path's to be compared.
 */
export const PlantBodySchema = z.pipe(
  jsonObject,
  z.object({ id: z.optional(Int64Schema), name: text(), tag: z.optional(text()) }),
);

/** A tag a patch gives: a new one, or null for none. */
const PatchTagSchema = field((value): string | null | Problem => {
  if (value === null) return null;
  if (typeof value !== 'string') return { problem: `must be a string, or null for no tag, got ${describe(value)}` };
  return withinLimit(value) ? value : { problem: TEXT_TOO_LONG };
});

/**
 * A JSON Merge Patch of a plant (RFC 7396): the fields it gives change, `"tag": null` removes the
 * tag; a name cannot be removed (`"name": null` is refused as a create refuses it). Fields the
 * contract does not name are dropped, as a NewPlant's are; an id given is checked, for the path's.
 */
export const PatchSchema = z.pipe(
  jsonObject,
  z.object({ id: z.optional(Int64Schema), name: z.optional(text()), tag: z.optional(PatchTagSchema) }),
);

/** The 200 answer: a Plant. Loose on purpose: only the contract's types are checked in answers we read. */
export const PlantSchema = z.pipe(jsonObject, z.object({ name: z.string(), tag: z.optional(z.string()) }));

/** The 400 answer (and every other failure's): its code an int32, as a number. */
export const ErrorBodySchema = z.pipe(
  jsonObject,
  z.object({ error: z.pipe(field(jsonInteger(INT32_MIN, INT32_MAX)), z.transform(Number)), message: z.string() }),
);

export type NewPlant = z.output<typeof NewPlantSchema>;
export type PlantChange = z.output<typeof PatchSchema>;
export type Plant = z.output<typeof PlantSchema>;
export type ErrorBody = z.output<typeof ErrorBodySchema>;
