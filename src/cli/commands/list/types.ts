import type { NewPlant } from '../../../core/schemas.js';
import type { OutputOptions } from '../../command-spec.js';
import type { Target } from '../../target.js';

/** The formats list writes for import to read back: exactly what import reads. */
export type ListFormat = 'ndjson' | 'csv';
export const LIST_FORMATS: readonly ListFormat[] = ['ndjson', 'csv'];

export interface ListOptions extends OutputOptions {
  /** At most this many plants; all when absent. */
  limit?: number;
  /** As typed: checked when it runs. */
  after?: string;
  tag?: string;
  format?: ListFormat;
  target: Target;
}

export interface ListResult {
  /** The plants in id order, a page at a time, read as they are written out (a million need not fit in memory). */
  pages: AsyncIterable<NewPlant[]>;
  format?: ListFormat;
  /** Ids of plants CSV cannot carry (an empty tag, a NUL, a lone surrogate), left out and named on stderr: exit 1. */
  notWritten: bigint[];
}
