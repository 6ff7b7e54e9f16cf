import { etagOfFor } from '../../core/decide.js';
import { isPlantsError } from '../../core/errors.js';
import type { NewPlant } from '../../core/schemas.js';
import type { AddOutcome, DeleteOutcome, ListQuery, Patch, PatchOutcome, PlantStore, PlantWriter, Put, PutOutcome, Removal } from '../../core/store.js';
import { NODE_FS, type FileSystem } from '../../fs/file-system.js';
import { adding, deleting, patching, putting, type Decision } from './changes.js';
import { DEFAULT_FOLD_AT, foldJournal, FoldPolicy } from './checkpoint.js';
import { DELETED, JournalAppender } from './wal.js';
import type { Snapshot } from './snapshot.js';
import { isReadOnly, refuseReadOnly } from './read-only.js';
import { realStorePath, sameStamp, StoreFiles } from './store-files.js';
import { interruptedError, lockStore, underLease, type HeldLock } from './store-lock.js';

export { DEFAULT_FOLD_AT } from './checkpoint.js';

export interface FileStoreOptions {
  /** How long to wait for another process's lock before giving up with `store_locked` (default 30 s). */
  lockWaitMs?: number;
  /** Called when a write has waited a second for another process's lock, and is still waiting. */
  onLockWait?: () => void;
  /** The file system every read and write goes through: node:fs, or in tests one that fails. */
  fs?: FileSystem;
  /** Aborted: waits for no lock and begins no write any more, each failing as `interrupted`; the write under way is finished. */
  stop?: AbortSignal;
  /** See fold.ts; tests fold small stores with less. */
  foldAt?: number;
  /** Opened to write (a server): a store plants must not write (read-only.ts) is refused now, not at the first write. */
  writing?: boolean;
}

/**
 * A run of writes that goes on (a server, an import) indexes its journal tail once it outgrows the
 * index and this many lines, at doubling sizes, so indexing costs it O(1) a line; a reader beside
 * it reads up to that many lines as they are. What it leaves is indexed when it closes.
 */
const INDEX_IN_A_RUN = 100_000;

/**
 * How long a read waits for the lock to checkpoint a store file no index vouches for: a holder
 * that keeps it longer is writing, and its writes checkpoint the file; the read answers from memory.
 */
const NORMALISE_WAIT_MS = 1_000;

/**
 * The JSON file store: `<store>` (store-file.ts), `<store>.journal` (journal.ts) and the
 * `<store>.index` a reader finds its way by (store-index.ts); docs/store.md tells how they fit.
 * Reads take no lock: each reads one snapshot (snapshot.ts) of the files, read on where another
 * process changed them. Writes are made under a lease on the cross-process lock (store-lock.ts),
 * held for one `hold` by whoever batches writes (a server, an import's batch): each appends its
 * lines to the journal and is acknowledged once they are fsynced; a write that makes the journal
 * outgrow the store file first folds it into a new store file (fold.ts).
 */
export class FileStore implements PlantStore {
  readonly path: string;
  private readonly files: StoreFiles;
  private readonly appender: JournalAppender;
  private readonly folds: FoldPolicy;
  /** The store as this process last read or wrote it. */
  private snapshot: Snapshot | undefined;
  /** Whether a hold is under way: while its lease is held, no other process writes. */
  private holding = false;
  private holds: Promise<unknown> = Promise.resolve();
  /** The stamp of the store file a read last tried to checkpoint (normalised): tried once. */
  private normalising: string | undefined;

  private constructor(
    path: string,
    private readonly options: FileStoreOptions,
  ) {
    const fs = options.fs ?? NODE_FS;
    this.path = realStorePath(fs, path);
    this.files = new StoreFiles(fs, this.path);
    this.appender = new JournalAppender(this.files.journalPath, fs);
    this.folds = new FoldPolicy(options.foldAt ?? DEFAULT_FOLD_AT);
  }

  /** The store at `path` (created on the first write), read and checked now: one not ours is `store_corrupt`. */
  static async open(path: string, options: FileStoreOptions = {}): Promise<FileStore> {
    const store = new FileStore(path, options);
    await store.read(() => undefined);
    if (options.writing === true) refuseReadOnly(store.files.fs, store.path, store.files.journalPath);
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

  list(query: ListQuery): Promise<NewPlant[]> {
    return this.read((snapshot) => snapshot.page(query));
  }

  /** Runs `work` with the lock held, taken once for all the writes it makes through `writer`; one hold at a time. */
  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    return this.locked(this.options.lockWaitMs ?? 30_000, this.options.onLockWait, (leased) => work(this.writer(leased)));
  }

  /** Runs `work` under a lease of the lock, waiting `waitMs` at most for it; one hold at a time. */
  private locked<T>(waitMs: number, onWait: (() => void) | undefined, work: (leased: () => Promise<HeldLock>) => Promise<T>): Promise<T> {
    const take = () => lockStore(this.path, waitMs, onWait, this.files.fs, this.options.stop);
    const run = this.holds.then(() =>
      underLease(take, async (leased) => {
        this.holding = true;
        try {
          return await work(leased);
        } finally {
          this.holding = false;
        }
      }),
    );
    this.holds = run.catch(() => undefined);
    return run;
  }

  /** Waits for the holds under way, leaves an index where the next reader would need one (StoreFiles.leaveIndex), and closes the files. */
  async close(): Promise<void> {
    await this.holds;
    if (this.snapshot !== undefined) this.snapshot = this.files.leaveIndex(this.snapshot);
    this.appender.close();
    this.files.forget(this.snapshot);
    this.snapshot = undefined;
  }

  /** The writes of one hold, one after another, each on the store as the one before left it. */
  private writer(leased: () => Promise<HeldLock>): PlantWriter {
    let turn: Promise<unknown> = Promise.resolve();
    const inTurn = <O>(decide: Decision<O>) => {
      const run = turn.then(async () => {
        if (this.options.stop?.aborted === true) throw interruptedError(this.path);
        return this.write(await leased(), decide);
      });
      turn = run.catch(() => undefined);
      return run;
    };
    return {
      addAll: (plants) => inTurn(adding(plants)),
      putAll: async (puts) => inTurn(putting(puts, await etagOfFor(puts))),
      patchAll: async (patches) => inTurn(patching(patches, await etagOfFor(patches))),
      deleteAll: async (targets) => inTurn(deleting(targets, await etagOfFor(targets))),
    };
  }

  /**
   * One write: decided on the store as it is, folded first when due, appended, and once durable,
   * the next snapshot. Each change on disk confirms the lease first. A failure forgets the snapshot:
   * the next call reads the files again rather than trust what this one may have left half done.
   */
  private async write<O>(lease: HeldLock, decide: Decision<O>): Promise<O[]> {
    // Whatever the write would change (even nothing: a duplicate), a store made read-only refuses it.
    refuseReadOnly(this.files.fs, this.path, this.files.journalPath);
    try {
      let snapshot = (this.snapshot = this.files.current(this.snapshot));
      const { outcomes, changes } = decide(snapshot);
      const { ids, lines } = changes;
      if (lines.length === 0) return outcomes;
      if (this.folds.due(snapshot, lines.length)) snapshot = this.snapshot = foldJournal(this.files, snapshot, lease, this.folds);
      // Where each line will start: the append cuts any torn tail back to the whole lines first.
      const values: number[] = [];
      let start = snapshot.journal.wholeBytes;
      for (const line of lines) {
        values.push(changes.deleted ? DELETED : start);
        start += Buffer.byteLength(line) + 1;
      }
      // Nothing yields between this look and the append's first change (the cut of a torn tail, or its write).
      lease.confirm();
      const file = await this.appender.append(lines, snapshot.journal.file, snapshot.journal.wholeBytes);
      this.snapshot = this.files.leaveIndex(snapshot.appended(snapshot.tail.with(ids, values), file, file.size), { tailPast: Math.max(INDEX_IN_A_RUN, snapshot.index.size), unvouched: false });
      return outcomes;
    } catch (error) {
      this.forget();
      throw error;
    }
  }

  /**
   * A read, on one snapshot. During a hold, its last write's: no other process writes. Else the
   * files as they are now; a read that fails as they change under it (a fold removed the journal
   * it was reading a line of, an append cut a torn tail and wrote over it as it was read) is tried
   * again, and after three tries spoiled by writers, under the lock.
   */
  private async read<T>(work: (snapshot: Snapshot) => T): Promise<T> {
    if (this.holding && this.snapshot !== undefined) return work(this.snapshot);
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
   * The snapshot, its store file checkpointed where it was read whole (no index vouching for it:
   * edited by hand, copied, never indexed): at once, under the lock, so that every reader after
   * this one finds it in our layout with its index. Not where it cannot be written: a store made
   * read-only, a read-only file system, a lock held past NORMALISE_WAIT_MS; the snapshot in memory
   * answers then, and nothing is written. Tried once for each store file a process meets.
   */
  private async normalised(snapshot: Snapshot): Promise<Snapshot> {
    if (!snapshot.store.readWhole || this.holding || this.normalising === snapshot.store.stamp) return snapshot;
    this.normalising = snapshot.store.stamp;
    if (isReadOnly(this.files.fs, this.path, this.files.journalPath)) return snapshot;
    try {
      return await this.locked(NORMALISE_WAIT_MS, undefined, async (leased) => {
        const lease = await leased();
        const current = (this.snapshot = this.files.current(this.snapshot));
        return current.store.readWhole ? (this.snapshot = foldJournal(this.files, current, lease, this.folds)) : current;
      });
    } catch (error) {
      if (!isPlantsError(error) || !['store_locked', 'store_io', 'interrupted'].includes(error.code)) throw error;
      // The files as they were (or, after a failure past the rename, holding the same plants).
      return (this.snapshot = snapshot);
    }
  }

  private forget(): void {
    this.files.forget(this.snapshot);
    this.snapshot = undefined;
  }
}
