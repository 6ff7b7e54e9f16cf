import type { PlantsError } from './errors.js';
import { parseJson } from './json.js';
import { LIMITS } from './fields.js';
import { checkNewPlant } from './new-plant.js';
import { plainPlant, validPlant } from './plain-line.js';
import type { NewPlant } from './schemas.js';

/**
 * A NewPlant as one line of JSON in canonical form: `{"id":1,"name":"Fern","tag":"herb"}`, the
 * form the store file and journal hold and that most NDJSON writers produce.
 */
export function encodePlant(plant: NewPlant): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`;
}

const CANONICAL_START = /^\{"id":(-?[0-9]+),"name":"/;

/**
 * The plant of a line in canonical form, read fast and exactly: the NewPlant rules checked
 * directly (isValidText, the int64 bounds), and only a line the encoder would write accepted, so
 * it cannot mean anything else. A line without escapes is taken apart where it stands (plainPlant);
 * any other goes through the native JSON.parse and must re-encode to itself. Undefined for any
 * other line, valid or not: the caller then reads it with the lossless parser and the schema,
 * which also say precisely what is wrong.
 */
export function canonicalPlant(line: string): NewPlant | undefined {
  return plainPlant(line, 0, line.length) ?? escapedPlant(line);
}

/** A canonical line with an escape in a string: JSON.parse, then the line must be the plant's encoding. */
function escapedPlant(line: string): NewPlant | undefined {
  const start = CANONICAL_START.exec(line);
  if (start === null) return undefined;
  let parsed: { name?: unknown; tag?: unknown };
  try {
    parsed = JSON.parse(line) as { name?: unknown; tag?: unknown };
  } catch {
    return undefined;
  }
  const plant = validPlant(BigInt(start[1] as string), parsed.name, parsed.tag);
  return plant !== undefined && encodePlant(plant) === line ? plant : undefined;
}

const NEXT_PLANT = '},{"id":';

/**
 * The plants of a page as the service writes it, `[` and canonical lines joined by `,` and `]`,
 * read fast and exactly: each line as canonicalPlant reads it, in place. A line is cut where
 * `},{"id":` is: in a canonical line `{"` is only its start (a quote in a string is always
 * escaped), and whatever the cut, lines that are each canonical, joined so, are that array of
 * those plants. Undefined for any other text, valid or not: the caller reads it with the lossless
 * parser and the schema.
 */
export function canonicalPage(text: string): NewPlant[] | undefined {
  if (text === '[]') return [];
  if (!text.startsWith('[{') || !text.endsWith('}]')) return undefined;
  const plants: NewPlant[] = [];
  for (let from = 1; ;) {
    const cut = text.indexOf(NEXT_PLANT, from);
    const to = cut === -1 ? text.length - 1 : cut + 1;
    const plant = plainPlant(text, from, to) ?? escapedPlant(text.slice(from, to));
    if (plant === undefined) return undefined;
    plants.push(plant);
    if (cut === -1) return plants;
    from = cut + 2;
  }
}

const ascii = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));
const PLAIN_HEAD = ascii('{"id":');
const NAME_FIELD = ascii(',"name":"');
const TAG_FIELD = ascii(',"tag":"');

/**
 * The id of a plant's line given as bytes, where the line is canonical and plain: an id of at
 * most 15 digits, a name and a tag (if any) of ASCII from 0x20 to 0x7f (DEL included: JSON
 * writes it as it is) without escapes, each within the length limit. What canonicalPlant accepts
 * of such a line, decided on its bytes without making a string, a BigInt or a plant (a cold read
 * of a journal checks each of its lines). Undefined for any other line, valid or not: the caller
 * then reads it as a string, with canonicalPlant and the lossless parser.
 */
export function plainLineId(bytes: Uint8Array, from: number, to: number): number | undefined {
  if (!startsWith(bytes, from, to, PLAIN_HEAD)) return undefined;
  let at = from + PLAIN_HEAD.length;
  const negative = bytes[at] === 0x2d;
  if (negative) at += 1;
  const digitsFrom = at;
  let id = 0;
  for (; at < to && (bytes[at] as number) >= 0x30 && (bytes[at] as number) <= 0x39; at += 1)
    id = id * 10 + ((bytes[at] as number) - 0x30);
  const digits = at - digitsFrom;
  // No leading zero, no "-0", and a double holds it exactly (longer ids are read the slow way).
  if (digits === 0 || digits > 15 || (bytes[digitsFrom] === 0x30 && (digits > 1 || negative))) return undefined;
  if (!startsWith(bytes, at, to, NAME_FIELD)) return undefined;
  at = plainText(bytes, at + NAME_FIELD.length, to);
  if (at === -1) return undefined;
  if (startsWith(bytes, at, to, TAG_FIELD)) {
    at = plainText(bytes, at + TAG_FIELD.length, to);
    if (at === -1) return undefined;
  }
  return at === to - 1 && bytes[at] === 0x7d ? (negative ? -id : id) : undefined;
}

function startsWith(bytes: Uint8Array, at: number, to: number, prefix: Uint8Array): boolean {
  if (to - at < prefix.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/**
 * Where a plain string's text starting at `at` ends, past its closing quote: ASCII
 * (0x20-0x7f) with no quote or backslash, within the length limit (a byte a character); else -1.
 */
function plainText(bytes: Uint8Array, at: number, to: number): number {
  const limit = Math.min(to, at + LIMITS.textMaxCharacters + 1);
  for (let i = at; i < limit; i += 1) {
    const byte = bytes[i] as number;
    if (byte === 0x22) return i + 1;
    if (byte < 0x20 || byte > 0x7f || byte === 0x5c) return -1;
  }
  return -1;
}

/**
 * What a text of JSON says as a NewPlant: the plant (and whether the text is its canonical line,
 * character for character), or why it is none: not JSON at all (the parser's message), or JSON
 * that is no valid NewPlant (the error, each problem with its field). Each caller maps the two
 * failures to its own: a 400 for the server, a failed row for an import, a corrupt store.
 */
export type PlantReading =
  | { plant: NewPlant; canonical: boolean; notJson?: undefined; invalid?: undefined }
  | { notJson: string; plant?: undefined; invalid?: undefined }
  | { invalid: PlantsError; plant?: undefined; notJson?: undefined };

/**
 * The one reader of a plant's JSON text: the fast exact path for a canonical line (the form every
 * writer of ours and most NDJSON writers produce), else the lossless parser and the zod schema
 * (new-plant.ts), so that no digit of an id is lost and every problem is named.
 */
export function readPlantJson(text: string): PlantReading {
  const fast = canonicalPlant(text);
  if (fast !== undefined) return { plant: fast, canonical: true };
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    // A RangeError here is a stack overflow: nesting deep enough to exhaust the parser's recursion.
    return { notJson: error instanceof RangeError ? 'nested too deeply' : (error as Error).message };
  }
  const { plant, invalid } = checkNewPlant(value);
  return plant === undefined ? { invalid } : { plant, canonical: false };
}
