import type { NewPlant } from '../core/schemas.js';
import type { AddOutcome, PlantStore } from '../core/store.js';

interface Waiting {
  plants: readonly NewPlant[];
  resolve: (outcomes: AddOutcome[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit over another store. A file store pays a lock, a rewrite and two fsyncs per addAll;
 * calls that arrive while one is being written wait and then go together in ONE inner addAll, so
 * the cost is paid per batch, not per request. Each caller still learns exactly its own outcomes,
 * and only once they are durable. A call made while idle starts at once: no timer adds latency.
 */
export class BatchingStore implements PlantStore {
  private waiting: Waiting[] = [];
  private writing: Promise<void> | undefined;

  constructor(private readonly inner: PlantStore) {}

  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    if (plants.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.waiting.push({ plants: [...plants], resolve, reject });
      this.writing ??= this.writeWhileWaiting();
    });
  }

  /** Resolves when nothing is waiting or being written (e.g. at shutdown, after the last request). */
  async drain(): Promise<void> {
    while (this.writing !== undefined) await this.writing;
  }

  private async writeWhileWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      await this.write(batch);
    }
    this.writing = undefined;
  }

  /** One inner addAll for the whole batch; never throws (each caller gets the failure instead). */
  private async write(batch: readonly Waiting[]): Promise<void> {
    try {
      const plants = batch.flatMap((entry) => entry.plants);
      const outcomes = await this.inner.addAll(plants);
      if (outcomes.length !== plants.length) {
        throw new Error(`the inner store returned ${outcomes.length} outcomes for ${plants.length} plants`);
      }
      let start = 0;
      for (const entry of batch) {
        entry.resolve(outcomes.slice(start, start + entry.plants.length));
        start += entry.plants.length;
      }
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    }
  }
}
