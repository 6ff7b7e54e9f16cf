import type { PlantsError } from '../core/errors.js';

/** Line number (NDJSON, CSV: where the record starts) or array index (JSON), as a person finds it. */
export type RowPlace = { line: number } | { index: number };

/**
 * One row of bulk work (an import, a delete from a file): where it is in the input, and what it
 * asks for (a plant to create, an id to delete), with the id it is about; or why it asks for
 * nothing that can be done.
 */
export type Row<T> = ValidRow<T> | InvalidRow;

export interface ValidRow<T> {
  at: RowPlace;
  value: T;
  id: bigint;
  error?: undefined;
}

export interface InvalidRow {
  at: RowPlace;
  error: PlantsError;
  /**
   * The row as read, for --rejects, where it can be fixed and fed back: a JSON value (CSV cells as
   * an object), or `text` that was never JSON. A row over the size limit keeps nothing.
   */
  raw?: unknown;
  text?: string;
  /** The id, when the row's id itself is a valid int64. */
  id?: bigint;
  value?: undefined;
}

/**
 * What the work of one row came to: done (created, deleted), nothing to do (the id taken, or not
 * there), or for an import that brings plants up to date, the plant replaced or so already; for
 * a dry run, a row that would be done.
 */
export type RowOutcome = 'done' | 'noop' | 'updated' | 'unchanged' | 'valid';

export interface BulkSettings {
  /**
   * A row that changes nothing (its id taken, for an import; absent, for a delete): `skip` counts it as done already.
   */
  onNoop: 'fail' | 'skip';
  /** Stop at the first failed row. */
  failFast: boolean;
  /** Check every row, do nothing. */
  dryRun: boolean;
}
