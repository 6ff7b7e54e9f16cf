/**
 * Names and tags as PostgreSQL keeps them. The contract takes any JSON string, but a `text` value
 * cannot hold NUL, and in a UTF-8 database not an unpaired surrogate either. Such a string is kept
 * as U+FDD0 (a noncharacter, reserved for a program's internal use) followed by its JSON string
 * literal, which is plain text; so is a string that itself begins with U+FDD0, so that the mapping
 * is one-to-one and comes back exactly. Every other string is kept as it is: other readers of the
 * table see the names people gave, and a tag filter is one equality on the indexed column.
 */
export const MARKER = '\uFDD0';
/** NUL, or an unpaired surrogate (in a `u` pattern, a pair is one code point and never matches). */
const NOT_TEXT = /[\0\p{Cs}]/u;

export function toDatabaseText(text: string): string {
  return text.startsWith(MARKER) || NOT_TEXT.test(text) ? MARKER + JSON.stringify(text) : text;
}

export function fromDatabaseText(stored: string): string {
  return stored.startsWith(MARKER) ? (JSON.parse(stored.slice(MARKER.length)) as string) : stored;
}
