import { extname } from 'node:path';

export type Format = 'ndjson' | 'csv' | 'json';
export const FORMATS: readonly Format[] = ['ndjson', 'csv', 'json'];

/** The formats a list of ids to delete may have: those plants list writes, or an id a line. */
export type IdFormat = Format | 'ids';
export const ID_FORMATS: readonly IdFormat[] = ['ids', 'ndjson', 'csv', 'json'];

const BY_EXTENSION: Record<string, Format> = { '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.csv': 'csv', '.json': 'json' };

/** The format a file's name says it has, if it says. */
export function formatFromName(path: string): Format | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/** The text of an input's head from its first byte that is not blank (JSON's blanks), a byte order mark left out. */
function fromFirstNonBlank(head: Buffer): string {
  return head.toString('utf8').replace(/^\uFEFF/, '').replace(/^[ \t\r\n]+/, '');
}

/** The first line of a text, without its line break. */
function firstLine(text: string): string {
  return text.split(/\r?\n|\r/, 1)[0] ?? '';
}

/**
 * The format of plants by its head (from its first byte that is not blank): `[` a JSON array, `{`
 * NDJSON; else CSV where the first line reads as a CSV line (it holds a comma, or it is a header
 * naming `id`), and NDJSON otherwise: a first line that is neither (text that was never JSON, as
 * --rejects keeps it) is then one failed row, not a whole input refused as CSV with no header.
 * An input that ended blank is NDJSON, of no rows; a head that is blank but did not end says
 * nothing (undefined).
 */
export function formatFromHead(head: Buffer, ended: boolean): Format | undefined {
  const text = fromFirstNonBlank(head);
  if (text === '') return ended ? 'ndjson' : undefined;
  if (text.startsWith('[')) return 'json';
  if (text.startsWith('{')) return 'ndjson';
  const line = firstLine(text);
  return line.includes(',') || line.trim().replace(/^"(.*)"$/, '$1').toLowerCase() === 'id' ? 'csv' : 'ndjson';
}

/**
 * The format of a list of ids by its head: ids where the first line that is not blank is only a
 * number, else as formatFromHead.
 */
export function idFormatFromHead(head: Buffer, ended: boolean): IdFormat | undefined {
  return /^[+-]?\d+\s*$/.test(firstLine(fromFirstNonBlank(head))) ? 'ids' : formatFromHead(head, ended);
}
