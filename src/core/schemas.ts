// zod/mini: the same validation as zod's classic API at a fraction of its start-up cost, which
// every create pays (docs/performance.md).
import * as z from 'zod/mini';
import { INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN, integerFromDecimalText, integerFromJsonNumberText } from './int64.js';
import { jsonNumberText } from './json.js';
import { thousands } from './printable.js';

/**
 * Limits of our own (the contract sets none); the README and openapi.json (`maxLength`) document
 * them. Characters are Unicode code points, as JSON Schema counts them (a lone surrogate is one).
 */
export const LIMITS = { textMaxCharacters: 1_000 } as const;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const text = jsonNumberText(value);
  if (text !== undefined) return text;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/** A field read by `read`, which returns the value or the message of what is wrong with it. */
function field<T>(read: (value: unknown) => T | { problem: string }) {
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

/**
 * An integer in [min, max] from parsed JSON, exact: a JSON number (kept as text by parseJson), a
 * bigint, or a JS number that is a safe integer. `"1"` is a string, not an integer.
 */
function jsonInteger(min: bigint, max: bigint) {
  return field((value): bigint | { problem: string } => {
    if (value === undefined) return { problem: 'is required' };
    let integer: bigint | undefined | 'too-large';
    const text = jsonNumberText(value);
    if (text !== undefined) integer = integerFromJsonNumberText(text);
    else if (typeof value === 'bigint') integer = value;
    else if (typeof value === 'number' && Number.isSafeInteger(value)) integer = BigInt(value);
    else if (typeof value !== 'number') return { problem: `must be an integer, got ${describe(value)}` };
    if (integer === undefined) return { problem: `must be an integer, got ${describe(value)}` };
    if (integer === 'too-large' || integer < min || integer > max) return { problem: `must be between ${min} and ${max}, got ${describe(value)}` };
    return integer;
  });
}

/** An int64 typed as text (a flag, a CSV cell): base-10 digits only. */
export const DecimalInt64Schema = field((value): bigint | { problem: string } => {
  if (value === undefined) return { problem: 'is required' };
  if (typeof value !== 'string') return { problem: `must be a base-10 integer, got ${describe(value)}` };
  const integer = integerFromDecimalText(value);
  if (integer === undefined) return { problem: `must be a base-10 integer, got ${JSON.stringify(value)}` };
  if (integer < INT64_MIN || integer > INT64_MAX) return { problem: `must be between ${INT64_MIN} and ${INT64_MAX}, got ${value}` };
  return integer;
});

/**
 * Whether a string is within the length limit. Any string the contract's schema accepts is a
 * name or tag: empty, control characters, lone surrogates, right-to-left marks, emoji. Keeping them
 * off a terminal is the job of whatever prints them (printable.ts), not of the store.
 */
function withinLimit(text: string): boolean {
  // A string has at least as many UTF-16 units as characters: most are decided without counting.
  return text.length <= LIMITS.textMaxCharacters || characterCount(text) <= LIMITS.textMaxCharacters;
}

/** A string's characters: its code points, a surrogate pair one, a lone surrogate one. */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        i += 1;
      }
    }
  }
  return count;
}

/**
 * Whether a value passes the text rule below, checked directly: for the fast path of canonical
 * lines (plant-json.ts), where a million stored plants would each pay for a schema run. A
 * property test holds it to the schema.
 */
export function isValidText(value: unknown): value is string {
  return typeof value === 'string' && withinLimit(value);
}

const TEXT_TOO_LONG = `must be at most ${thousands(LIMITS.textMaxCharacters)} characters`;

function text() {
  return z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be a string, got ${describe(issue.input)}`) })
    .check(z.refine(withinLimit, TEXT_TOO_LONG));
}

// parseJson gives numbers as objects (LosslessNumber), so "is an object" must rule them out.
const jsonObject = z.custom<Record<string, unknown>>(
  (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && jsonNumberText(value) === undefined,
  { error: (issue) => `must be a JSON object, got ${describe(issue.input)}` },
);

export const Int64Schema = jsonInteger(INT64_MIN, INT64_MAX);

/** The body that creates a plant. Fields the contract does not name are dropped. */
export const NewPlantSchema = z.pipe(jsonObject, z.object({ id: Int64Schema, name: text(), tag: z.optional(text()) }));

/** The same NewPlant, typed as text: command-line flags and CSV cells. */
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
export const ErrorBodySchema = z.pipe(jsonObject, z.object({ error: z.pipe(jsonInteger(INT32_MIN, INT32_MAX), z.transform(Number)), message: z.string() }));

export type NewPlant = z.output<typeof NewPlantSchema>;
export type PlantChange = z.output<typeof PatchSchema>;
export type Plant = z.output<typeof PlantSchema>;
export type ErrorBody = z.output<typeof ErrorBodySchema>;
