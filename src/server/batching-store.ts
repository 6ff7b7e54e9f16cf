import type { NewPlant } from '../core/schemas.js';
import type { AddOutcome, DeleteOutcome, ListQuery, PlantStore, PlantWriter } from '../core/store.js';

/** A call waiting for the next batch: what it asks, and how to answer it. */
type Waiting =
  | { kind: 'add'; plants: readonly NewPlant[]; resolve: (outcomes: AddOutcome[]) => void; reject: (error: unknown) => void }
  | { kind: 'delete'; ids: readonly bigint[]; resolve: (outcomes: DeleteOutcome[]) => void; reject: (error: unknown) => void };

/**
 * Group commit over another store. A durable write costs a lock, an append and an fsync (or a
 * database round trip); calls that arrive while one is being written wait, and then go together:
 * each run of adds (or of deletes) in ONE inner call, in the order they arrived, so the cost is
 * paid per batch, not per request. Each caller still learns exactly its own outcomes, and only
 * once they are durable. A call made while a writer is free starts at once: no timer adds
 * latency. Reads go straight to the inner store.
 *
 * `writers` batches may be in flight at once: 1 for the file store, whose writes take turns at its
 * lock anyway; for a database, as many as it has connections, each batch one statement. A writer
 * holds the inner store (`hold`: the file store's lock) from its first batch until nothing more is
 * waiting, so a busy server takes the lock once for a run of batches, not once a batch.
 */
export class BatchingStore implements PlantStore {
  private waiting: Waiting[] = [];
  private writing = 0;
  private drained: (() => void)[] = [];

  constructor(
    private readonly inner: PlantStore,
    private readonly writers = 1,
  ) {}

  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    if (plants.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => this.wait({ kind: 'add', plants: [...plants], resolve, reject }));
  }

  deleteAll(ids: readonly bigint[]): Promise<DeleteOutcome[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => this.wait({ kind: 'delete', ids: [...ids], resolve, reject }));
  }

  get(id: bigint): Promise<NewPlant | undefined> {
    return this.inner.get(id);
  }

  list(query: ListQuery): Promise<NewPlant[]> {
    return this.inner.list(query);
  }

  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    return work(this);
  }

  /** Resolves when nothing is waiting or being written (e.g. at shutdown, after the last request). */
  async drain(): Promise<void> {
    if (this.writing > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  async close(): Promise<void> {
    await this.drain();
    await this.inner.close();
  }

  private wait(call: Waiting): void {
    this.waiting.push(call);
    if (this.writing < this.writers) {
      this.writing += 1;
      void this.writeWhileWaiting();
    }
  }

  private async writeWhileWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      try {
        await this.inner.hold(async (writer) => {
          while (this.waiting.length > 0) {
            const batch = this.waiting;
            this.waiting = [];
            for (let start = 0; start < batch.length; ) {
              let end = start + 1;
              while (end < batch.length && (batch[end] as Waiting).kind === (batch[start] as Waiting).kind) end += 1;
              await this.write(writer, batch.slice(start, end));
              start = end;
            }
          }
        });
      } catch (error) {
        // The hold could not be taken (the lock held too long by another process): the calls that
        // were to be written in it fail with that.
        for (const call of this.waiting.splice(0)) call.reject(error);
      }
    }
    this.writing -= 1;
    if (this.writing === 0) for (const resolve of this.drained.splice(0)) resolve();
  }

  /** One inner call for a run of calls of one kind; never throws (each caller gets the failure instead). */
  private async write(writer: PlantWriter, run: readonly Waiting[]): Promise<void> {
    try {
      const outcomes: (AddOutcome | DeleteOutcome)[] =
        run[0]?.kind === 'add'
          ? await writer.addAll(run.flatMap((call) => (call.kind === 'add' ? call.plants : [])))
          : await writer.deleteAll(run.flatMap((call) => (call.kind === 'delete' ? call.ids : [])));
      const asked = run.reduce((sum, call) => sum + (call.kind === 'add' ? call.plants.length : call.ids.length), 0);
      if (outcomes.length !== asked) throw new Error(`the inner store returned ${outcomes.length} outcomes for ${asked} ${run[0]?.kind === 'add' ? 'plants' : 'ids'}`);
      let start = 0;
      for (const call of run) {
        const count = call.kind === 'add' ? call.plants.length : call.ids.length;
        const mine = outcomes.slice(start, start + count);
        if (call.kind === 'add') call.resolve(mine as AddOutcome[]);
        else call.resolve(mine as DeleteOutcome[]);
        start += count;
      }
    } catch (error) {
      for (const call of run) call.reject(error);
    }
  }
}
