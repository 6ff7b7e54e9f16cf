import { INT32_MAX, INT32_MIN } from './int64.js';
import { describe, isProblem, jsonInteger, notAString, readDecimalInt64, readInt64, readText } from './fields.js';
import { TEXT_TOO_LONG, withinLimit } from './fields.js';
import { field, optional, type ShapeValue } from './shapes.js';

export { LIMITS } from './fields.js';

/**
 * The contract's shapes, each defined once, here, and read by checkShape (shapes.ts) wherever it is
 * read: a request's body, a store's line, an import's row, a command line's flags, a service's
 * answer. openapi.json documents them (test/server/openapi.test.ts holds it to them).
 */

/** A name or a tag: a string of at most LIMITS.textMaxCharacters characters. */
const TEXT = field(readText, 'string');
const INT64 = field(readInt64, 'integer');

/** The body that creates a plant. Fields the contract does not name are dropped. */
export const NEW_PLANT = { id: INT64, name: TEXT, tag: optional(TEXT) };

/** The same NewPlant, typed as text: command-line flags and CSV cells, the id in base-10 digits. */
export const NEW_PLANT_TEXT = { id: field(readDecimalInt64, 'string'), name: TEXT, tag: optional(TEXT) };

/**
 * The body that replaces a plant (PUT /plants/{id}): a Plant, checked as a NewPlant's fields are.
 * An id is not needed (the path gives it); one given is checked, for the path's to be compared.
 */
export const PLANT_BODY = { id: optional(INT64), name: TEXT, tag: optional(TEXT) };

/** A tag a patch gives: a new one, or null for none. */
function readPatchTag(value: unknown): string | null | { problem: string } {
  if (value === null) return null;
  if (typeof value !== 'string') return { problem: `must be a string, or null for no tag, got ${describe(value)}` };
  return withinLimit(value) ? value : { problem: TEXT_TOO_LONG };
}

/**
 * A JSON Merge Patch of a plant (RFC 7396): the fields it gives change, `"tag": null` removes the
 * tag; a name cannot be removed (`"name": null` is refused as a create refuses it). Fields the
 * contract does not name are dropped, as a NewPlant's are; an id given is checked, for the path's.
 */
export const PATCH = { id: optional(INT64), name: optional(TEXT), tag: optional(field(readPatchTag, 'other')) };

/** Any string: the answers we read are checked for the contract's types only, not our limits. */
function readString(value: unknown): string | { problem: string } {
  return typeof value === 'string' ? value : { problem: notAString(value) };
}

const readInt32 = jsonInteger(INT32_MIN, INT32_MAX);

/** An Error's code: an int32, as a number. */
function readErrorCode(value: unknown): number | { problem: string } {
  const code = readInt32(value);
  return isProblem(code) ? code : Number(code);
}

/** The 200 answer: a Plant. Loose on purpose: only the contract's types are checked in answers we read. */
export const PLANT = { name: field(readString, 'string'), tag: optional(field(readString, 'string')) };

/** The 400 answer (and every other failure's). */
export const ERROR_BODY = { error: field(readErrorCode, 'integer'), message: field(readString, 'string') };

export type NewPlant = ShapeValue<typeof NEW_PLANT>;
export type PlantChange = ShapeValue<typeof PATCH>;
export type Plant = ShapeValue<typeof PLANT>;
export type ErrorBody = ShapeValue<typeof ERROR_BODY>;
