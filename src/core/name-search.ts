import { CASE_CLASSES } from './case-classes.js';

/**
 * What `plants list --search TEXT` (and `GET /plants?search=`) finds, defined once, for every
 * store and for the client's check of a page: the plants whose name holds TEXT, code point for
 * code point, where two code points are the same when Unicode's simple case folding makes them
 * one (case-classes.ts: Unicode 17.0, frozen here, so that every Node, the service's and
 * PostgreSQL agree on every string):
 *
 * - `fern` finds `Fern`, `FERN` and `Boston fern`; `é` finds `É`; `σ` finds `Σ` and final `ς`;
 *   `k` finds the Kelvin sign `K`; `ß` finds `ẞ`, not `ss` (a fold of one code point to one).
 * - No locale: the Turkish `İ` and `ı` are each only themselves (`i` finds `I`, as everywhere
 *   but in Turkish). No normalisation: `é` (one code point) does not find `e` + U+0301.
 * - Code points, not UTF-16 units: a lone surrogate in TEXT finds only a lone one, never half of
 *   a pair. A NUL finds a NUL.
 * - The empty text is in every name: `--search ""` finds every plant.
 */

/** A class's code points, by each of them; built when a search first needs it. */
let classes: Map<number, readonly number[]> | undefined;

/** The code points simple case folding makes one with `codePoint`, itself among them; undefined for none but itself. */
export function caseClassOf(codePoint: number): readonly number[] | undefined {
  if (classes === undefined) {
    classes = new Map();
    for (const entry of CASE_CLASSES.split(' ')) {
      const members = entry.split('.').map((hex) => parseInt(hex, 16));
      for (const member of members) classes.set(member, members);
    }
  }
  return classes.get(codePoint);
}

// eslint-disable-next-line no-control-regex -- ASCII, control characters and all
const ASCII = /^[\u0000-\u007f]*$/;

/**
 * The text with each code point replaced by the first of its class: two texts fold alike where
 * simple case folding makes them one. Each code point stays as long in UTF-16 (a class keeps to one
 * plane), and a lone surrogate stays as it is.
 */
export function foldCase(text: string): string {
  // In ASCII, the classes are the letters' two cases (k and s have a third, outside ASCII), and
  // the first of each is the capital: the native toUpperCase, which changes nothing else there.
  if (ASCII.test(text)) return text.toUpperCase();
  let folded = '';
  for (const character of text) {
    const members = caseClassOf(character.codePointAt(0) as number);
    folded += members === undefined ? character : String.fromCodePoint(members[0] as number);
  }
  return folded;
}

/** Whether names hold `search` (see above): a test made once, run on each name. */
export function nameMatcher(search: string): (name: string) => boolean {
  const folded = foldCase(search);
  if (folded === '') return () => true;
  return (name) => holds(foldCase(name), folded);
}

/** Whether `text` holds `part` at a place that splits no surrogate pair of `text`, at either end. */
function holds(text: string, part: string): boolean {
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) {
    if (!splitsPair(text, at) && !splitsPair(text, at + part.length)) return true;
  }
  return false;
}

function splitsPair(text: string, at: number): boolean {
  if (at === 0 || at === text.length) return false;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}
