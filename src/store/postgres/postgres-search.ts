import { caseClassOf } from '../../core/name-search.js';
import { STORED_AS_JSON } from './postgres-name-index.js';
import { MARKER } from './postgres-text.js';

/**
 * The condition of a name search (src/core/name-search.ts) on the table, exact in any database
 * locale: no lower(), no ILIKE, no collation, whose case rules are the database's. Each code point
 * of the text is a bracket of the code points its class holds, written as `\uXXXX` escapes, in a
 * POSIX regular expression (`~`, case-sensitive): `fern` is `[Ff][Ee][Rr][Nn]`. A trigram index
 * (postgres-name-index.ts) serves such an expression; without one, it is a scan.
 *
 * A name PostgreSQL text cannot hold is stored as U+FDD0 and its JSON string literal
 * (postgres-text.ts): for those, the text is matched in that form, each of its code points as the
 * literal writes it (a NUL as `\u0000`), and only at the boundaries of what the literal writes for
 * each code point of the name, so that `u0000` does not find the NUL's escape. A text that holds a
 * NUL or a lone surrogate is only in such names.
 *
 * `param` binds a value and answers its placeholder (`$3`). Undefined for the empty text: every name.
 */
export function searchCondition(search: string, param: (value: string) => string): string | undefined {
  if (search === '') return undefined;
  const characters = [...search];
  // A name that holds the text has at least as many code points (folding maps one to one), and
  // so has its literal: a long text is matched against long names only, a regular expression of
  // hundreds of brackets being costly on each row. Not for a short one: the planner, which cannot
  // tell how many names are long enough, would take a third of them, and count on too few matches.
  const longEnough = characters.length > LONG_TEXT ? `char_length(name) >= ${characters.length} AND ` : '';
  // The names stored as JSON: found by their partial index, then matched (as a function, which no
  // trigram index serves: pg_trgm cannot read this expression, and would read every entry for it).
  const literal = `^${escaped(MARKER)}\\u0022${JSON_CHARACTER}*${characters.map(inLiteral).join('')}`;
  const asStored = `${STORED_AS_JSON} AND textregexeq(name, ${param(literal)})`;
  if (characters.some(isNotText)) return `(${longEnough}${asStored})`;
  const asGiven = `NOT ${STORED_AS_JSON} AND name ~ ${param(characters.map(anyCase).join(''))}`;
  return `(${longEnough}((${asGiven}) OR (${asStored})))`;
}

/** Code points past which a text is matched only against names at least as long. */
const LONG_TEXT = 32;

/** What a JSON string literal writes for one code point, from its start: a character, or an escape. */
const JSON_CHARACTER = `(?:[^\\u005c]|\\u005cu[0123456789abcdef]{4}|\\u005c[^u])`;

/** A NUL or a lone surrogate (a code point of one UTF-16 unit): what PostgreSQL text cannot hold. */
function isNotText(character: string): boolean {
  const code = character.charCodeAt(0);
  return character.length === 1 && (code === 0 || (code >= 0xd800 && code <= 0xdfff));
}

/** The expression of one code point, any of its case class. */
function anyCase(character: string): string {
  const members = caseClassOf(character.codePointAt(0) as number);
  if (members === undefined) return escaped(character);
  return `[${members.map((member) => escaped(String.fromCodePoint(member))).join('')}]`;
}

/** One code point of the text as a JSON string literal writes it: itself (any of its case class), or its escape. */
function inLiteral(character: string): string {
  const written = JSON.stringify(character).slice(1, -1);
  return written === character ? anyCase(character) : escaped(written);
}

/** Each code point as an escape of the expression's (`\u00e9`, `\U0001f331`): nothing in it is a metacharacter. */
function escaped(text: string): string {
  return [...text]
    .map((character) => {
      const code = character.codePointAt(0) as number;
      return code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    })
    .join('');
}
