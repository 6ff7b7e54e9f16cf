import { extname } from 'node:path';
import { PlantsError } from '../core/errors.js';

export type Format = 'ndjson' | 'csv' | 'json';
export const FORMATS: readonly Format[] = ['ndjson', 'csv', 'json'];

/**
 * The formats a list of ids to delete may have: those plants list writes (its table, a line a
 * plant, too: its first column is the id, exactly), or an id a line.
 */
export type IdFormat = Format | 'table' | 'ids';
export const ID_FORMATS: readonly IdFormat[] = ['ids', 'table', 'ndjson', 'csv', 'json'];

/** What an input's head may show for certain: one of the formats, or plants list's table. */
type Shape = Format | 'table';

/** What an input looks like, for a message: by what its head shows. */
const LOOKS: Readonly<Record<Shape, string>> = {
  json: 'a JSON array (it begins with [)',
  ndjson: 'NDJSON (its first line is a JSON object)',
  csv: 'CSV (its first line is a header naming id)',
  table: "plants list's table (id, name and tag, tab-separated)",
};

const NAMED: Readonly<Record<Format, string>> = { json: 'a JSON array', ndjson: 'NDJSON', csv: 'CSV' };

/**
 * A line of plants list's table: an id, a name and a tag (empty for none) separated by tabs. The
 * name and tag hold no tab (list escapes it, as `\t`), so a line has two.
 */
export const TABLE_LINE = /^-?\d+\t[^\t]*\t[^\t]*$/;

const BY_EXTENSION: Record<string, Format> = {
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
  '.json': 'json',
};

/** The format a file's name says it has, if it says. */
export function formatFromName(path: string): Format | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

function unreadable(message: string): PlantsError {
  return new PlantsError('unreadable_input', message);
}

/** The text of an input's head from its first byte that is not blank (JSON's blanks), a byte order mark left out. */
function fromFirstNonBlank(head: Buffer): string {
  return head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .replace(/^[ \t\r\n]+/, '');
}

/** The first line of a text, without its line break. */
function firstLine(text: string): string {
  return text.split(/\r?\n|\r/, 1)[0] ?? '';
}

/**
 * What a head (from its first byte that is not blank) shows for certain: `[` a JSON array, `{`
 * NDJSON, a line of plants list's table, a CSV header naming `id`; else nothing certain.
 */
function shapeOf(text: string): Shape | undefined {
  if (text.startsWith('[')) return 'json';
  if (text.startsWith('{')) return 'ndjson';
  const line = firstLine(text);
  if (TABLE_LINE.test(line)) return 'table';
  const cells = line.split(',').map((cell) =>
    cell
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase(),
  );
  return cells.includes('id') ? 'csv' : undefined;
}

/**
 * The format of plants by its head, where its name says none: as shapeOf shows it; else CSV where
 * the first line holds a comma, and NDJSON otherwise: a first line that is neither (text that was
 * never JSON, as --rejects keeps it) is then one failed row, not a whole input refused as CSV with
 * no header. An input that ended blank is NDJSON, of no rows; a head that is blank but did not
 * end says nothing (undefined).
 */
function formatFromHead(text: string, ended: boolean): Shape | undefined {
  if (text === '') return ended ? 'ndjson' : undefined;
  return shapeOf(text) ?? (firstLine(text).includes(',') ? 'csv' : 'ndjson');
}

/**
 * The format its name says, where it says one; refused where the head shows for certain another
 * (an NDJSON file named .csv), in words that say what the input looks like.
 */
function fromName(path: string, text: string): Format | undefined {
  const named = formatFromName(path);
  const shape = shapeOf(text);
  if (named === undefined || shape === undefined || shape === named) return named;
  throw unreadable(`it looks like ${LOOKS[shape]}, not ${NAMED[named]} as its name says: give --format ${shape}`);
}

/**
 * The format of the plants to import from `path`, where --format gives none: by its name, else by
 * its head. plants list's table is refused, saying why: it cannot tell an empty tag from none
 * (both are an empty last column), so reading it would lose what NDJSON keeps.
 */
export function plantsFormat(path: string, head: Buffer, ended: boolean): Format | undefined {
  const text = fromFirstNonBlank(head);
  if (shapeOf(text) === 'table') {
    const instead = 'write it with plants list --format ndjson';
    throw unreadable(`this is ${LOOKS.table}, which cannot tell an empty tag from none: ${instead}`);
  }
  return fromName(path, text) ?? (formatFromHead(text, ended) as Format | undefined);
}

/**
 * The format of a list of ids to delete, where --format gives none: by its name, else by its
 * head: ids where its first line that is not blank is only a number (a line of the table with
 * no name and no tag, `5<TAB><TAB>`, is not), else as for plants, the table of plants list
 * included (its ids are exact).
 */
export function idFormat(path: string, head: Buffer, ended: boolean): IdFormat | undefined {
  const text = fromFirstNonBlank(head);
  const idLine = shapeOf(text) === undefined && /^[+-]?\d+\s*$/.test(firstLine(text));
  return fromName(path, text) ?? (idLine ? 'ids' : formatFromHead(text, ended));
}
