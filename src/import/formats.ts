import { extname } from 'node:path';

export type Format = 'ndjson' | 'csv' | 'json';
export const FORMATS: readonly Format[] = ['ndjson', 'csv', 'json'];

const BY_EXTENSION: Record<string, Format> = { '.ndjson': 'ndjson', '.jsonl': 'ndjson', '.csv': 'csv', '.json': 'json' };

/** The format a file's name says it has, if it says. */
export function formatFromName(path: string): Format | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}
