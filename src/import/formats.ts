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

/**
 * The format of a list of ids by its first bytes, for a pipe or a file whose name says none: a
 * JSON object or array, a line that is only a number (ids), else a CSV header.
 */
export function idFormatFromHead(head: Buffer): IdFormat {
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (text.startsWith('{')) return 'ndjson';
  if (text.startsWith('[')) return 'json';
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  return firstLine === '' || /^[+-]?\d+\s*$/.test(firstLine) ? 'ids' : 'csv';
}
