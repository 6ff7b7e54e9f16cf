import { INT64_MAX, INT64_MIN } from './int64.js';
import { isValidText } from './fields.js';
import type { NewPlant } from './schemas.js';

const ID_FIELD = '{"id":';
const NAME_OPEN = ',"name":"';
const TAG_OPEN = ',"tag":"';

/**
 * The plant of `text` from `from` to `to`, where that is a canonical line whose strings hold no
 * escape: `{"id":N,"name":"…"}` or with `,"tag":"…"`, the id as the encoder writes it (no leading
 * zero, no plus, no "-0"). Read in place, character by character: what it makes is the plant's
 * strings, its id and the plant (a list or an import reads a million lines, and a regular
 * expression's match and its captures were most of what they made). Undefined for any other line.
 */
export function plainPlant(text: string, from: number, to: number): NewPlant | undefined {
  if (!text.startsWith(ID_FIELD, from)) return undefined;
  let at = from + ID_FIELD.length;
  const negative = text.charCodeAt(at) === 0x2d;
  if (negative) at += 1;
  const digitsFrom = at;
  let small = 0;
  for (; at < to; at += 1) {
    const digit = text.charCodeAt(at) - 0x30;
    if (digit < 0 || digit > 9) break;
    small = small * 10 + digit;
  }
  const digits = at - digitsFrom;
  if (digits === 0 || (text.charCodeAt(digitsFrom) === 0x30 && (digits > 1 || negative))) return undefined;
  if (!text.startsWith(NAME_OPEN, at)) return undefined;
  const nameFrom = at + NAME_OPEN.length;
  const nameTo = plainStringEnd(text, nameFrom, to);
  if (nameTo === -1) return undefined;
  at = nameTo + 1;
  let tagFrom = -1;
  let tagTo = -1;
  if (text.startsWith(TAG_OPEN, at)) {
    tagFrom = at + TAG_OPEN.length;
    tagTo = plainStringEnd(text, tagFrom, to);
    if (tagTo === -1) return undefined;
    at = tagTo + 1;
  }
  // Whatever matched above ends here, at the line's last character: nothing was read past it.
  if (at !== to - 1 || text.charCodeAt(at) !== 0x7d) return undefined;
  // Up to 15 digits a double holds exactly: no text of the id is made.
  const id =
    digits <= 15 ? BigInt(negative ? -small : small) : BigInt(text.slice(from + ID_FIELD.length, digitsFrom + digits));
  return validPlant(id, text.slice(nameFrom, nameTo), tagFrom === -1 ? undefined : text.slice(tagFrom, tagTo));
}

/**
 * Where the string starting at `at` ends (its closing quote), where its text is its value: no
 * escape, no control character (JSON allows none raw: the encoder escapes them) and no lone
 * surrogate (the encoder escapes those too). -1 for any other, or where no quote comes before `to`.
 */
function plainStringEnd(text: string, at: number, to: number): number {
  for (let i = at; i < to; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit === 0x22) return i;
    if (unit < 0x20 || unit === 0x5c) return -1;
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      // A high surrogate and a low one after it, within the string: one character.
      if (unit >= 0xdc00 || i + 1 >= to || next < 0xdc00 || next > 0xdfff) return -1;
      i += 1;
    }
  }
  return -1;
}

/** The plant of these values, where they are a valid NewPlant's. */
export function validPlant(id: bigint, name: unknown, tag: unknown): NewPlant | undefined {
  if (id < INT64_MIN || id > INT64_MAX) return undefined;
  if (!isValidText(name) || (tag !== undefined && !isValidText(tag))) return undefined;
  return tag === undefined ? { id, name } : { id, name, tag };
}
