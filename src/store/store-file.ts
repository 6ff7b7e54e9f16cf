import { jsonNumberText, parseJson } from '../core/json.js';
import type { NewPlant } from '../core/schemas.js';
import { encodePlant } from '../core/plant-line.js';
import { decodePlantLine, plantLine, plantOfLine, type PlantLine } from './plant-lines.js';
import { storeCorruptError } from './store-errors.js';

/**
 * The store file format, version 1:
 *
 *   {
 *     "plantStore": 1,
 *     "plants": [
 *       {"id":1,"name":"Fern","tag":"herb"},
 *       ...
 *     ]
 *   }
 *
 * One plant per line, ids as exact JSON integers. The `plantStore` marker is how we know a file is
 * ours: anything else is refused, never overwritten. Any JSON document of this shape is read (a
 * file edited by hand); the layout above, the one we write, is read faster.
 *
 * Beside it, `<store>.journal` may hold plants added since (see journal.ts).
 */
export const FORMAT_VERSION = 1;

const HEAD = `{\n  "plantStore": ${FORMAT_VERSION},\n  "plants": [`;
const TAIL = ']\n}\n';
const INDENT = '    ';

/** A store file of these canonical plant lines. */
export function encodeStoreLines(lines: readonly string[]): string {
  // One join over the lines themselves: no second string per plant (a store may hold millions).
  return lines.length === 0 ? `${HEAD}${TAIL}` : `${HEAD}\n${INDENT}${lines.join(`,\n${INDENT}`)}\n  ${TAIL}`;
}

export function encodeStore(plants: Iterable<NewPlant>): string {
  return encodeStoreLines([...plants].map(encodePlant));
}

const EMPTY_STORE = `${HEAD}${TAIL}`;
const LAST_LINE_END = `\n  ${TAIL}`;
const SEPARATOR = Buffer.from(`,\n${INDENT}`);

/**
 * A store file (its bytes, or undefined for none yet) with more plants at its end, given as
 * newline-terminated canonical lines (a journal's bytes), for a file in the layout we write: no
 * plant is parsed, and the new file is written into one buffer of its exact size, without an
 * object per line, so that folding a journal into a store of a million plants costs two passes
 * over its bytes and no garbage per plant. (A Buffer slice per line and per separator, then one
 * concat, made a 1,000,000-row import --local's last fold peak ~100 MB higher.)
 */
export function appendToStoreFile(file: Buffer | undefined, lines: Buffer): Buffer {
  const whole = lines.subarray(0, lines.lastIndexOf(10) + 1);
  if (whole.length === 0) return file ?? Buffer.from(EMPTY_STORE);
  const empty = file === undefined || file.equals(Buffer.from(EMPTY_STORE));
  const head = empty ? Buffer.from(`${HEAD}\n${INDENT}`) : file.subarray(0, file.length - LAST_LINE_END.length);
  const tail = Buffer.from(LAST_LINE_END);
  let count = 0;
  for (let end = whole.indexOf(10); end !== -1; end = whole.indexOf(10, end + 1)) count += 1;
  // Each line loses its newline and gains a separator before it, but the first after an empty head.
  const separators = empty ? count - 1 : count;
  const size = head.length + whole.length - count + separators * SEPARATOR.length + tail.length;
  const out = Buffer.allocUnsafe(size);
  let offset = head.copy(out, 0);
  let start = 0;
  for (let end = whole.indexOf(10); end !== -1; end = whole.indexOf(10, start)) {
    if (start > 0 || !empty) offset += SEPARATOR.copy(out, offset);
    offset += whole.copy(out, offset, start, end);
    start = end + 1;
  }
  offset += tail.copy(out, offset);
  // Every byte of `out` was written just above, or the store would get what memory held before.
  if (offset !== size) throw new Error(`appendToStoreFile wrote ${offset} of ${size} bytes`);
  return out;
}

/**
 * The plant lines of a store file, keyed by id, in file order, and whether the file is in the
 * layout we write (so that appendToStoreFile may extend it). Throws `store_corrupt` for anything
 * not ours.
 */
export function decodeStoreLines(text: string, path: string): { plants: Map<bigint, string>; ourLayout: boolean } {
  const lines = canonicalBody(text);
  const plants = new Map<bigint, string>();
  const add = (plant: PlantLine, index: number) => {
    if (plants.has(plant.id)) throw storeCorruptError(path, `plants[${index}]: id ${plant.id} appears twice`);
    plants.set(plant.id, plant.line);
  };
  const where = (index: number) => `plants[${index}]`;
  if (lines !== undefined) {
    try {
      // Indexed: see decodePlantLine.
      for (let index = 0; index < lines.length; index += 1) add(decodePlantLine(lines[index] as string, path, index, where), index);
      return { plants, ourLayout: true };
    } catch {
      // Our layout at a glance, but not line by line (a plant split over lines by hand): the whole
      // document is read below, which also says precisely what is wrong, if anything is.
      plants.clear();
    }
  }
  anyLayout(text, path).forEach((entry, index) => add(plantLine(entry, path, where(index)), index));
  return { plants, ourLayout: false };
}

export function decodeStore(text: string, path: string): Map<bigint, NewPlant> {
  const plants = new Map<bigint, NewPlant>();
  for (const [id, line] of decodeStoreLines(text, path).plants) plants.set(id, plantOfLine(line));
  return plants;
}

/** The plant lines of a file in exactly the layout we write, or undefined for any other layout. */
function canonicalBody(text: string): string[] | undefined {
  if (!text.startsWith(HEAD) || !text.endsWith(TAIL)) return undefined;
  const body = text.slice(HEAD.length, text.length - TAIL.length);
  if (body === '') return [];
  // "[\n  ]": empty, but not as we write it; appendToStoreFile knows only `[]`, so read it the slow way.
  if (body === '\n  ') return undefined;
  // JSON strings cannot hold a raw newline, so newlines split plants.
  const lines = body.split('\n');
  if (lines.shift() !== '' || lines.pop() !== '  ') return undefined;
  const plants: string[] = [];
  // Indexed: see decodePlantLine.
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const last = index === lines.length - 1;
    if (!line.startsWith(INDENT) || (!last && !line.endsWith(','))) return undefined;
    plants.push(line.slice(INDENT.length, last ? undefined : -1));
  }
  return plants;
}

function anyLayout(text: string, path: string): unknown[] {
  let document: unknown;
  try {
    document = parseJson(text);
  } catch (error) {
    throw storeCorruptError(path, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof document !== 'object' || document === null || !('plantStore' in document) || !('plants' in document)) {
    throw storeCorruptError(path, 'not a plants store file (no "plantStore" marker)');
  }
  const version = jsonNumberText(document.plantStore);
  if (version !== String(FORMAT_VERSION)) throw storeCorruptError(path, `unsupported format version ${version ?? String(document.plantStore)}`);
  if (!Array.isArray(document.plants)) throw storeCorruptError(path, '"plants" is not an array');
  return document.plants;
}
