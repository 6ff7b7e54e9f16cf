import { ERROR_NUMBERS, isPlantsError, type PlantsError } from '../core/errors.js';
import type { PlantsClient } from '../client/client-options.js';
import { admit } from './admit.js';
import type { ImportTally } from './outcomes.js';
import type { Row } from './rows.js';
import type { ImportSettings } from './settings.js';

/**
 * Imports through the service with `concurrency` requests in flight over a pool of keep-alive
 * connections. Workers pull rows from the one input stream, so memory is bounded by the
 * concurrency, not the input. What stops the import: a refused token (no row can succeed), the
 * service gone or outside the contract, or any failure under --fail-fast.
 */
export async function importThroughService(rows: AsyncIterable<Row[]>, client: PlantsClient, tally: ImportTally, settings: ImportSettings, concurrency: number): Promise<void> {
  const input = rows[Symbol.asyncIterator]();
  let inputFailure: { error: unknown } | undefined;
  let ready: Row[] = [];
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
  const nextRow = async (): Promise<Row | undefined> => {
    while (position >= ready.length) {
      if (inputFailure !== undefined) return undefined;
      reading ??= refill().finally(() => (reading = undefined));
      if (!(await reading)) return undefined;
    }
    return ready[position++];
  };
  const worker = async () => {
    for (let row = await nextRow(); row !== undefined; row = await nextRow()) await importRow(row, client, tally, settings);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  // The input failed part way: every request already sent has its answer; now say so.
  if (inputFailure !== undefined) throw inputFailure.error;
}

async function importRow(row: Row, client: PlantsClient, tally: ImportTally, settings: ImportSettings): Promise<void> {
  if (!admit(row, tally, settings)) return;
  try {
    await client.createPlant(row.plant);
    tally.created();
  } catch (error) {
    if (!isPlantsError(error)) throw error;
    settle(row, error, tally, settings);
  }
}

function settle(row: Row, error: PlantsError, tally: ImportTally, settings: ImportSettings): void {
  switch (error.code) {
    case 'refused':
      if (error.error === ERROR_NUMBERS.duplicate_id) return tally.duplicate(row, error, settings);
      return tally.failed(row, error, settings);
    default:
      // A refused token or no connection: nothing was created. A timeout, a dropped connection or
      // an answer outside the contract: the plant may exist. Either way the import cannot go on.
      if (error.effect === 'none') tally.notSent(row);
      else tally.unknown(row, error);
      return tally.stop(error);
  }
}
