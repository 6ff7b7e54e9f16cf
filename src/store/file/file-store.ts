import { isPlantsError } from '../../core/errors.js';
import { filtersNothing, filterTest } from '../../core/plant-filter.js';
import type { NewPlant } from '../../core/schemas.js';
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
} from '../../core/store.js';
import { probeWrite } from '../../fs/durable-file.js';
import { NODE_FS, type FileSystem } from '../../fs/file-system.js';
import { writerOf, type Decision } from './changes.js';
import { commit, type Writing } from './commit.js';
import { checkpoint, CheckpointPolicy, DEFAULT_CHECKPOINT_AT } from './checkpoint.js';
import { storeIoError } from '../store-errors.js';
import { isReadOnly, refuseReadOnly } from './read-only.js';
import type { Snapshot } from './snapshot.js';
import { sameStamp, StoreFiles } from './store-files.js';
import { Holds, type HeldLock } from './lock-lease.js';
import { interruptedError, lockStore } from './store-lock.js';
import { realStorePath } from './store-paths.js';
import { WalAppender } from './wal-appender.js';

export { DEFAULT_CHECKPOINT_AT } from './checkpoint.js';

export interface FileStoreOptions {
  /** How long to wait for another process's lock before giving up with `store_locked` (default 30 s). */
  lockWaitMs?: number;
  /** Called when a write has waited a second for another process's lock, and is still waiting. */
  onLockWait?: () => void;
  /** The file system every read and write goes through: node:fs, or in tests one that fails. */
  fs?: FileSystem;
  /**
   * Aborted: waits for no lock and begins no write any more, each failing as `interrupted`; the
   * write under way is finished.
   */
  stop?: AbortSignal;
  /** See checkpoint.ts; tests checkpoint small stores with less. */
  checkpointAt?: number;
  /** Opened to write (a server): a store plants must not write (read-only.ts) is refused now, not at a write. */
  writing?: boolean;
}

/**
 * How long a read waits for the lock to checkpoint a database file no wal-index vouches for: a
 * holder that keeps it longer is writing, and its writes checkpoint it; the read answers from memory.
 */
const NORMALISE_WAIT_MS = 1_000;

/**
 * The JSON file store, built as SQLite's WAL mode is (docs/store.md): a database file
 * (database-file.ts), its WAL (wal.ts) and the wal-index a reader finds its way by (wal-index.ts).
 * Reads take no lock: each reads one snapshot (snapshot.ts) of the files, read on where another
 * process changed them. Writes are made under a lease on the cross-process lock (store-lock.ts),
 * held for one `hold` by whoever batches writes (a server, an import's batch): each appends its
 * lines to the WAL and is acknowledged once they are fsynced; a write that makes the WAL outgrow
 * the database file first checkpoints it into a new database file (checkpoint.ts).
 */
export class FileStore implements PlantStore {
  readonly path: string;
  private readonly files: StoreFiles;
  private readonly writing: Writing;
  /** The store as this process last read or wrote it. */
  private snapshot: Snapshot | undefined;
  private readonly holds = new Holds();
  /** The stamp of the database file a read last tried to checkpoint (normalised): tried once. */
  private normalising: string | undefined;

  private constructor(
    path: string,
    private readonly options: FileStoreOptions,
  ) {
    const fs = options.fs ?? NODE_FS;
    this.path = realStorePath(fs, path);
    this.files = new StoreFiles(fs, this.path);
    const checkpoints = new CheckpointPolicy(options.checkpointAt ?? DEFAULT_CHECKPOINT_AT);
    this.writing = { files: this.files, appender: new WalAppender(this.files.walPath, fs), checkpoints };
  }

  /** The store at `path` (created on the first write), read and checked now: one not ours is `store_corrupt`. */
  static async open(path: string, options: FileStoreOptions = {}): Promise<FileStore> {
    const store = new FileStore(path, options);
    await store.read(() => undefined);
    if (options.writing === true) refuseReadOnly(store.files.fs, store.path, store.files.walPath);
    return store;
  }

  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return this.hold((writer) => writer.addAll(plants));
  }

  putAll(puts: readonly Put[]): Promise<PutOutcome[]> {
    return this.hold((writer) => writer.putAll(puts));
  }

  patchAll(patches: readonly Patch[]): Promise<PatchOutcome[]> {
    return this.hold((writer) => writer.patchAll(patches));
  }

  deleteAll(targets: readonly (bigint | Removal)[]): Promise<DeleteOutcome[]> {
    return this.hold((writer) => writer.deleteAll(targets));
  }

  get(id: bigint): Promise<NewPlant | undefined> {
    return this.read((snapshot) => snapshot.get(id));
  }

  async list(query: ListQuery): Promise<NewPlant[]> {
    const keeps = await filterTest(query);
    return await this.read((snapshot) => snapshot.page(query, keeps));
  }

  /** A scan of every plant (snapshot.ts): without a filter, of the ids alone. */
  async count(filter: PlantFilter): Promise<number> {
    const keeps = filtersNothing(filter) ? undefined : await filterTest(filter);
    return await this.read((snapshot) => snapshot.count(keeps));
  }

  /** Runs `work` with the lock held, taken once for all the writes it makes through `writer`; one hold at a time. */
  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    const { lockWaitMs = 30_000, onLockWait } = this.options;
    return this.locked(lockWaitMs, onLockWait, (leased) => work(this.writer(leased)));
  }

  /** Under the lock a write waits for: the store as a write would find it, and a block written beside it, removed. */
  probe(): Promise<void> {
    const { lockWaitMs = 30_000 } = this.options;
    return this.locked(lockWaitMs, undefined, async (leased) => {
      await leased();
      refuseReadOnly(this.files.fs, this.path, this.files.walPath);
      try {
        await probeWrite(this.path, this.files.fs);
      } catch (error) {
        throw storeIoError(this.path, 'write beside', error);
      }
    });
  }

  /** Runs `work` under a lease of the lock, waiting `waitMs` at most for it; one hold at a time. */
  private locked<T>(
    waitMs: number,
    onWait: (() => void) | undefined,
    work: (leased: () => Promise<HeldLock>) => Promise<T>,
  ): Promise<T> {
    return this.holds.run(() => lockStore(this.path, waitMs, onWait, this.files.fs, this.options.stop), work);
  }

  /**
   * Waits for the holds under way, leaves a wal-index where the next reader would need one
   * (StoreFiles.leaveIndex), and closes the files.
   */
  async close(): Promise<void> {
    await this.holds.done();
    if (this.snapshot !== undefined) this.snapshot = this.files.leaveIndex(this.snapshot);
    this.writing.appender.close();
    this.files.forget(this.snapshot);
    this.snapshot = undefined;
  }

  /** The writes of one hold, one after another, each on the store as the one before left it. */
  private writer(leased: () => Promise<HeldLock>): PlantWriter {
    return writerOf(async (decide) => {
      if (this.options.stop?.aborted === true) throw interruptedError(this.path);
      return this.write(await leased(), decide);
    });
  }

  /**
   * One write (commit.ts), on the store as it is now. A failure forgets the snapshot: the next call
   * reads the files again rather than trust what this one may have left half done.
   */
  private async write<O>(lease: HeldLock, decide: Decision<O>): Promise<O[]> {
    // Whatever the write would change (even nothing: a duplicate), a store made read-only refuses it.
    refuseReadOnly(this.files.fs, this.path, this.files.walPath);
    try {
      const snapshot = (this.snapshot = this.files.current(this.snapshot));
      return await commit(this.writing, snapshot, lease, decide, (next) => (this.snapshot = next));
    } catch (error) {
      this.forget();
      throw error;
    }
  }

  /**
   * A read, on one snapshot. During a hold, its last write's: no other process writes. Else the
   * files as they are now; a read that fails as they change under it (a checkpoint removed the WAL
   * it was reading a line of, an append cut a torn tail and wrote over it as it was read) is tried
   * again, and after three tries spoiled by writers, under the lock.
   */
  private async read<T>(work: (snapshot: Snapshot) => T): Promise<T> {
    if (this.holds.holding && this.snapshot !== undefined) return work(this.snapshot);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const stamp = this.files.stamp();
      try {
        return work(await this.normalised((this.snapshot = this.files.current(this.snapshot, stamp))));
      } catch (error) {
        // Files that did not change: the failure is the answer. A bug is not the files' doing.
        if (!isPlantsError(error) || sameStamp(stamp, this.files.stamp())) throw error;
        this.forget();
      }
    }
    return this.hold(async () => work((this.snapshot = this.files.current(this.snapshot))));
  }

  /**
   * The snapshot, its database file checkpointed where it was read whole (no wal-index vouching for
   * it: edited by hand, copied, never indexed): at once, under the lock, so that every reader after
   * this one finds it in our layout with its wal-index. Not where it cannot be written: a store made
   * read-only, a read-only file system, a lock held past NORMALISE_WAIT_MS; the snapshot in memory
   * answers then, and nothing is written. Tried once for each database file a process meets.
   */
  private async normalised(snapshot: Snapshot): Promise<Snapshot> {
    const { readWhole, stamp } = snapshot.database;
    if (!readWhole || this.holds.holding || this.normalising === stamp) return snapshot;
    this.normalising = stamp;
    if (isReadOnly(this.files.fs, this.path, this.files.walPath)) return snapshot;
    try {
      return await this.locked(NORMALISE_WAIT_MS, undefined, async (leased) => {
        const lease = await leased();
        const current = (this.snapshot = this.files.current(this.snapshot));
        if (!current.database.readWhole) return current;
        return (this.snapshot = checkpoint(this.files, current, lease, this.writing.checkpoints));
      });
    } catch (error) {
      if (!isPlantsError(error) || !['store_locked', 'store_io', 'interrupted'].includes(error.code)) throw error;
      // Answered from memory (the files as they were, or after a failure past the rename, holding
      // the same plants); what the hold opened meanwhile is let go.
      if (this.snapshot !== snapshot) this.files.forget(this.snapshot);
      return (this.snapshot = snapshot);
    }
  }

  private forget(): void {
    this.files.forget(this.snapshot);
    this.snapshot = undefined;
  }
}
