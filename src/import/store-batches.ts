import { isPlantsError, type PlantsError } from '../core/errors.js';
import { admit } from './admit.js';
import type { BulkTally } from './outcomes.js';
import type { BulkSettings, Row, RowOutcome, ValidRow } from './row.js';

/** The work of a batch of rows on a store, in one call: an outcome per row (addAll, deleteAll). */
export type BatchWork<T> = (values: T[]) => Promise<RowOutcome[]>;

/**
 * Does the rows' work on a store in batches of `batchSize` rows: one lock and one durable write
 * per batch, each costing O(batch) on a journaled store, so N rows cost O(N), and memory holds
 * one batch, not the input. A kill leaves every finished batch stored and nothing of the rest.
 * `noopError` says why a row changed nothing (a plant with its id exists; none with its id does).
 */
export async function applyInBatches<T>(
  rows: AsyncIterable<Row<T>[]>,
  work: BatchWork<T>,
  noopError: (row: ValidRow<T>) => PlantsError,
  tally: BulkTally<T>,
  settings: BulkSettings,
  batchSize = 10_000,
): Promise<void> {
  let batch: ValidRow<T>[] = [];
  const flush = async () => {
    const sending = batch;
    batch = [];
    if (sending.length === 0) return;
    // Rows admitted before a --fail-fast halt are still written; after a store failure, nothing is.
    if (tally.stoppedBy !== undefined) {
      for (const row of sending) tally.notSent(row);
      return;
    }
    let outcomes: RowOutcome[];
    try {
      outcomes = await work(sending.map((row) => row.value));
    } catch (error) {
      if (!isPlantsError(error)) throw error;
      // Stopped at a second signal: the interruption is the account's stop, not a failure of the store.
      if (error.code !== 'interrupted') tally.stop(error);
      // The write is atomic: none of this batch is stored, unless it failed once in place.
      for (const row of sending) {
        if (error.effect === 'unknown') tally.unknown(row, error);
        else tally.notSent(row);
      }
      return;
    }
    sending.forEach((row, i) => {
      const outcome = outcomes[i] ?? 'noop';
      if (outcome === 'noop') tally.noop(row, noopError(row), settings);
      else tally.done(outcome);
    });
  };

  try {
    for await (const run of rows) {
      for (const row of run) {
        if (admit(row, tally, settings)) {
          batch.push(row);
          if (batch.length >= batchSize) await flush();
        }
      }
    }
  } finally {
    // Also when the input fails part way: the rows read before it are done.
    await flush();
  }
}
