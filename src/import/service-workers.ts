import { isPlantsError, type PlantsError } from '../core/errors.js';
import { admit } from './admit.js';
import type { BulkTally } from './outcomes.js';
import type { BulkSettings, Row, RowOutcome, ValidRow } from './row.js';

/**
 * The work of one row, as a request to the service: done, or nothing to do, with why (a plant
 * with its id exists, none with its id does); a failure is thrown as the client reports it.
 */
export type RequestWork<T> = (row: ValidRow<T>) => Promise<Exclude<RowOutcome, 'noop'> | { noop: PlantsError }>;

/**
 * Does the rows' work through the service with `concurrency` requests in flight over a pool of
 * keep-alive connections. Workers pull rows from the one input stream, so memory is bounded by
 * the concurrency, not the input. What stops the work: a refused token (no row can succeed), the
 * service gone or outside the contract, or any failure under --fail-fast.
 */
export async function applyThroughService<T>(
  rows: AsyncIterable<Row<T>[]>,
  work: RequestWork<T>,
  tally: BulkTally<T>,
  settings: BulkSettings,
  concurrency: number,
): Promise<void> {
  const input = rows[Symbol.asyncIterator]();
  let inputFailure: { error: unknown } | undefined;
  let ready: Row<T>[] = [];
  let position = 0;
  let reading: Promise<boolean> | undefined;
  // One read of the input at a time, however many workers wait for rows: each row goes to one worker.
  const refill = async () => {
    try {
      const next = await input.next();
      if (next.done === true) return false;
      ready = next.value;
      position = 0;
      return true;
    } catch (error) {
      inputFailure ??= { error };
      return false;
    }
  };
  const nextRow = async (): Promise<Row<T> | undefined> => {
    while (position >= ready.length) {
      if (inputFailure !== undefined) return undefined;
      reading ??= refill().finally(() => (reading = undefined));
      if (!(await reading)) return undefined;
    }
    return ready[position++];
  };
  const worker = async () => {
    for (let row = await nextRow(); row !== undefined; row = await nextRow())
      await applyRow(row, work, tally, settings);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // The input failed part way: every request already sent has its answer; now say so.
  if (inputFailure !== undefined) throw inputFailure.error;
}

async function applyRow<T>(
  row: Row<T>,
  work: RequestWork<T>,
  tally: BulkTally<T>,
  settings: BulkSettings,
): Promise<void> {
  if (!admit(row, tally, settings)) return;
  let outcome: Exclude<RowOutcome, 'noop'> | { noop: PlantsError };
  try {
    outcome = await work(row);
  } catch (error) {
    if (!isPlantsError(error)) throw error;
    if (error.code === 'refused') return tally.failed(row, error, settings);
    // Abandoned at a second signal: the interruption is the account's stop, not the service's.
    if (error.code === 'interrupted') return error.effect === 'none' ? tally.notSent(row) : tally.unknown(row, error);
    // A refused token or no connection: nothing was done. A timeout, a dropped connection or an
    // answer outside the contract: it may have been. Either way the work cannot go on.
    if (error.effect === 'none') tally.notSent(row);
    else tally.unknown(row, error);
    return tally.stop(error);
  }
  if (typeof outcome === 'string') tally.done(outcome);
  else tally.noop(row, outcome.noop, settings);
}
