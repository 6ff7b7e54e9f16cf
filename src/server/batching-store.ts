import type { NewPlant } from '../core/schemas.js';
import type { BatchObserver } from './observer.js';
import type {
  AddOutcome,
  DeleteOutcome,
  ListQuery,
  Patch,
  PatchOutcome,
  PlantFilter,
  PlantStore,
  PlantWriter,
  Put,
  PutOutcome,
  Removal,
} from '../core/store.js';

/** The writes a batch may be of: each run of calls of one kind is one call of the inner store's. */
type Kind = keyof PlantWriter;

/** What the items of each kind of write are, for a message. */
const NOUNS: Readonly<Record<Kind, string>> = {
  addAll: 'plants',
  putAll: 'plants',
  patchAll: 'patches',
  deleteAll: 'ids',
};

/** The size of the batch each call's outcomes were written in: for the request's log line. */
const batchSizes = new WeakMap<readonly unknown[], number>();

/** How many items the inner call that wrote `outcomes` held, if a BatchingStore answered them. */
export function batchSizeOf(outcomes: readonly unknown[]): number | undefined {
  return batchSizes.get(outcomes);
}

/** A call waiting for the next batch: what it asks, and how to answer it. */
interface Waiting {
  kind: Kind;
  items: readonly unknown[];
  resolve: (outcomes: unknown[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit over another store. A durable write costs a lock, an append and an fsync (or a
 * database round trip); calls that arrive while one is being written wait, and then go together:
 * each run of calls of one kind (adds, puts, patches, deletes) in ONE inner call, in the order
 * they arrived, so the cost is paid per batch, not per request, and writes to one id are made in
 * the order they came. Each caller still learns exactly its own outcomes, and only once they are
 * durable. A call made while a writer is free starts at once: no timer adds latency. Reads go
 * straight to the inner store.
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
    /** Told of each inner call: its items, and the seconds until it was durable (the metrics). */
    private readonly onBatch?: BatchObserver,
  ) {}

  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return this.batched<AddOutcome>('addAll', plants);
  }

  putAll(puts: readonly Put[]): Promise<PutOutcome[]> {
    return this.batched<PutOutcome>('putAll', puts);
  }

  patchAll(patches: readonly Patch[]): Promise<PatchOutcome[]> {
    return this.batched<PatchOutcome>('patchAll', patches);
  }

  deleteAll(targets: readonly (bigint | Removal)[]): Promise<DeleteOutcome[]> {
    return this.batched<DeleteOutcome>('deleteAll', targets);
  }

  get(id: bigint): Promise<NewPlant | undefined> {
    return this.inner.get(id);
  }

  list(query: ListQuery): Promise<NewPlant[]> {
    return this.inner.list(query);
  }

  count(filter: PlantFilter): Promise<number> {
    return this.inner.count(filter);
  }

  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    return work(this);
  }

  probe(): Promise<void> {
    return this.inner.probe();
  }

  /** Resolves when nothing is waiting or being written (e.g. at shutdown, after the last request). */
  async drain(): Promise<void> {
    if (this.writing > 0) await new Promise<void>((resolve) => this.drained.push(resolve));
  }

  async close(): Promise<void> {
    await this.drain();
    await this.inner.close();
  }

  private batched<O>(kind: Kind, items: readonly unknown[]): Promise<O[]> {
    if (items.length === 0) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.waiting.push({ kind, items: [...items], resolve: resolve as (outcomes: unknown[]) => void, reject });
      if (this.writing < this.writers) {
        this.writing += 1;
        void this.writeWhileWaiting();
      }
    });
  }

  private async writeWhileWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      try {
        await this.inner.hold(async (writer) => {
          while (this.waiting.length > 0) {
            const batch = this.waiting;
            this.waiting = [];
            for (let start = 0; start < batch.length;) {
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
      const kind = (run[0] as Waiting).kind;
      const items = run.flatMap((call) => call.items);
      const started = this.onBatch === undefined ? 0 : performance.now();
      const outcomes = await (writer[kind] as (items: readonly unknown[]) => Promise<unknown[]>)(items);
      this.onBatch?.(items.length, (performance.now() - started) / 1000);
      if (outcomes.length !== items.length)
        throw new Error(`the inner store returned ${outcomes.length} outcomes for ${items.length} ${NOUNS[kind]}`);
      let start = 0;
      for (const call of run) {
        const own = outcomes.slice(start, start + call.items.length);
        batchSizes.set(own, items.length);
        call.resolve(own);
        start += call.items.length;
      }
    } catch (error) {
      for (const call of run) call.reject(error);
    }
  }
}
