import { duplicateId } from '../core/create.js';
import { isPlantsError } from '../core/errors.js';
import type { PlantStore } from '../core/store.js';
import { admit } from './admit.js';
import type { ImportTally } from './outcomes.js';
import type { Row, ValidRow } from './rows.js';
import type { ImportSettings } from './settings.js';

/**
 * Imports into a store in batches of `batchSize` rows: one lock and one durable write per batch.
 * With a journaled FileStore each write costs O(batch) and compactions O(N) in all, so an import
 * of N rows costs O(N), and memory holds one batch, not the input. A kill leaves every finished
 * batch stored and nothing of the rest.
 */
export async function importIntoStore(rows: AsyncIterable<Row[]>, store: Pick<PlantStore, 'addAll'>, tally: ImportTally, settings: ImportSettings, batchSize = 10_000): Promise<void> {
  let batch: ValidRow[] = [];
  const flush = async () => {
    const sending = batch;
    batch = [];
    if (sending.length === 0) return;
    // Rows admitted before a --fail-fast halt are still written; after a store failure, nothing is.
    if (tally.stoppedBy !== undefined) {
      for (const row of sending) tally.notSent(row);
      return;
    }
    let outcomes;
    try {
      outcomes = await store.addAll(sending.map((row) => row.plant));
    } catch (error) {
      if (!isPlantsError(error)) throw error;
      tally.stop(error);
      // The write is atomic: none of this batch is stored, unless it failed once in place.
      for (const row of sending) {
        if (error.effect === 'unknown') tally.unknown(row, error);
        else tally.notSent(row);
      }
      return;
    }
    sending.forEach((row, i) => {
      if (outcomes[i] === 'added') tally.created();
      else tally.duplicate(row, duplicateId(row.plant.id), settings);
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
    // Also when the input fails part way: the rows read before it are imported.
    await flush();
  }
}
