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

/**
 * The format of plants by the first byte of its head that is not blank: `[` a JSON array, `{`
 * NDJSON, anything else CSV (whose first line must then be its header). An input that ended
 * blank is NDJSON, of no rows; a head that is blank but did not end says nothing (undefined).
 */
export function formatFromHead(head: Buffer, ended: boolean): Format | undefined {
  const text = fromFirstNonBlank(head);
  if (text === '') return ended ? 'ndjson' : undefined;
  return text.startsWith('[') ? 'json' : text.startsWith('{') ? 'ndjson' : 'csv';
}

/**
 * The format of a list of ids by its head, as formatFromHead, and where that says CSV, ids when
 * the first line that is not blank is only a number.
 */
export function idFormatFromHead(head: Buffer, ended: boolean): IdFormat | undefined {
  const format = formatFromHead(head, ended);
  if (format !== 'csv') return format;
  const firstLine = fromFirstNonBlank(head).split(/\r?\n/, 1)[0] ?? '';
  return /^[+-]?\d+\s*$/.test(firstLine) ? 'ids' : 'csv';
}
