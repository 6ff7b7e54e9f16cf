import type { NewPlant } from './schemas.js';

const QUOTE = 0x22;
const ID_OPEN = Buffer.from('{"id":');
const NAME_OPEN = Buffer.from(',"name":');
const TAG_OPEN = Buffer.from(',"tag":');
const CLOSE = 0x7d;

/** The bytes the text is made in: grown as a page needs, kept for the next page. */
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * `before`, then the plants' canonical lines (encodePlant's) with `between` between them, then
 * `after`: the string `before + plants.map(encodePlant).join(between) + after` is, made in one
 * buffer. A list writes a page of plants at a time, a million in all: each line made as a string
 * of its own (and the pieces it is made of) was most of what a list allocated, and allocation is
 * what V8 grows its young generation by (docs/performance.md, figure 11).
 */
export function encodePlants(plants: readonly NewPlant[], before: string, between: string, after: string): string {
  let bytes = scratch;
  let at = 0;
  const room = (needed: number) => {
    if (at + needed <= bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * bytes.length, at + needed));
    bytes.copy(grown, 0, 0, at);
    bytes = scratch = grown;
  };
  // Any text: at most 3 bytes of UTF-8 a UTF-16 unit.
  const text = (value: string) => {
    room(3 * value.length);
    at += bytes.write(value, at);
  };
  const ascii = (value: Uint8Array) => {
    room(value.length);
    bytes.set(value, at);
    at += value.length;
  };
  // A string as JSON.stringify writes it: as it is, between quotes, where it needs no escape.
  const string = (value: string) => {
    if (!isPlain(value)) return text(JSON.stringify(value));
    room(value.length + 2);
    bytes[at++] = QUOTE;
    at += bytes.write(value, at, 'latin1');
    bytes[at++] = QUOTE;
  };
  text(before);
  for (let i = 0; i < plants.length; i += 1) {
    const plant = plants[i] as NewPlant;
    if (i > 0) text(between);
    ascii(ID_OPEN);
    text(String(plant.id));
    ascii(NAME_OPEN);
    string(plant.name);
    if (plant.tag !== undefined) {
      ascii(TAG_OPEN);
      string(plant.tag);
    }
    room(1);
    bytes[at++] = CLOSE;
  }
  text(after);
  return bytes.toString('utf8', 0, at);
}

/** ASCII that JSON writes as it is, a byte a character: from space to DEL, but for `"` and `\`. */
function isPlain(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    if (unit < 0x20 || unit > 0x7f || unit === 0x22 || unit === 0x5c) return false;
  }
  return true;
}
