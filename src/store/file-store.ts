import { isPlantsError } from '../core/errors.js';
import { encodePlant } from '../core/plant-json.js';
import type { NewPlant } from '../core/schemas.js';
import { decideAdds, decideDeletes, type AddOutcome, type DeleteOutcome, type ListQuery, type PlantStore, type PlantWriter } from '../core/store.js';
import { RenamedNotDurable } from '../fs/durable-file.js';
import { NODE_FS, type FileSystem } from '../fs/file-system.js';
import { DEFAULT_FOLD_AT, FoldPolicy, writeFold } from './fold.js';
import { DELETED, deleteLine, JournalAppender } from './journal.js';
import type { Snapshot } from './snapshot.js';
import { storeIoError } from './store-errors.js';
import { realStorePath, StoreFiles, type Stamp } from './store-files.js';
import { lockStore, type HeldLock } from './store-lock.js';

export { DEFAULT_FOLD_AT } from './fold.js';

export interface FileStoreOptions {
  /** How long to wait for another process's lock before giving up with `store_locked` (default 30 s). */
  lockWaitMs?: number;
  /** Called when a write has waited a second for another process's lock, and is still waiting. */
  onLockWait?: () => void;
  /** The file system every read and write goes through: node:fs, or in tests one that fails. */
  fs?: FileSystem;
  /** See fold.ts; tests fold small stores with less. */
  foldAt?: number;
}

/** Journal lines a reader reads as they are, past what the index holds: past this many, a writer indexes them as it closes. */
const INDEX_WORTH = 1_000;
/**
 * The same, for a run of writes that goes on (a server, an import): it indexes its tail once that
 * outgrows the index and this many lines, at doubling sizes, so indexing costs it O(1) a line.
 * Meanwhile, a reader beside it reads up to as many lines as they are.
 */
const INDEX_IN_A_RUN = 100_000;

/** What a write appends: a line for each of the ids it changes, deleting them or not. */
interface Changes {
  ids: bigint[];
  lines: string[];
  deleted: boolean;
}

/**
 * The JSON file store: `<store>` (store-file.ts), `<store>.journal` (journal.ts) and the
 * `<store>.index` a reader finds its way by (store-index.ts); docs/store.md tells how they fit.
 * Reads take no lock: each reads one snapshot (snapshot.ts) of the files, read again where another
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
  /** The lease of the hold under way: while it is held, no other process writes. */
  private lease: HeldLock | undefined;
  private holds: Promise<unknown> = Promise.resolve();
  /** Whether this process wrote: then it leaves an index of its journal behind it, where one is worth it. */
  private wrote = false;

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
    return store;
  }

  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return this.hold((writer) => writer.addAll(plants));
  }

  deleteAll(ids: readonly bigint[]): Promise<DeleteOutcome[]> {
    return this.hold((writer) => writer.deleteAll(ids));
  }

  get(id: bigint): Promise<NewPlant | undefined> {
    return this.read((snapshot) => snapshot.get(id));
  }

  list(query: ListQuery): Promise<NewPlant[]> {
    return this.read((snapshot) => snapshot.page(query));
  }

  /**
   * Runs `work` with the lock held, taken once for all the writes it makes through `writer`, one
   * hold at a time. A lease lost after a write of the hold (this process stalled past the lock's
   * staleness and it was taken over, or someone removed it) is taken anew for the next write,
   * waiting as any other process would; one lost before the first fails that write.
   */
  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    const run = this.holds.then(async () => {
      let lease = (this.lease = await this.takeLease());
      let used = false;
      const leased = async () => {
        if (used && !isMine(lease)) {
          lease.release();
          lease = this.lease = await this.takeLease();
        }
        used = true;
        return lease;
      };
      try {
        return await work(this.writer(leased));
      } finally {
        this.lease = undefined;
        lease.release();
      }
    });
    this.holds = run.catch(() => undefined);
    return run;
  }

  /** Waits for the holds under way, leaves an index of a long journal tail behind, and closes the files. */
  async close(): Promise<void> {
    await this.holds;
    if (this.wrote && this.snapshot !== undefined && this.snapshot.tail.lines > INDEX_WORTH) this.snapshot = this.files.writeIndex(this.snapshot);
    this.appender.close();
    this.forget();
  }

  private takeLease(): Promise<HeldLock> {
    return lockStore(this.path, this.options.lockWaitMs ?? 30_000, this.options.onLockWait, this.files.fs);
  }

  /** The writes of one hold, one after another, each on the store as the one before left it. */
  private writer(leased: () => Promise<HeldLock>): PlantWriter {
    let turn: Promise<unknown> = Promise.resolve();
    const inTurn = <O>(decide: (snapshot: Snapshot) => { outcomes: O[]; changes: Changes }) => {
      const run = turn.then(async () => this.write(await leased(), decide));
      turn = run.catch(() => undefined);
      return run;
    };
    return {
      addAll: (plants) =>
        inTurn((snapshot) => {
          const outcomes = decideAdds(plants, (id) => snapshot.has(id));
          const changes: Changes = { ids: [], lines: [], deleted: false };
          plants.forEach((plant, i) => outcomes[i] === 'added' && changes.ids.push(plant.id) && changes.lines.push(encodePlant(plant)));
          return { outcomes, changes };
        }),
      deleteAll: (ids) =>
        inTurn((snapshot) => {
          const outcomes = decideDeletes(ids, (id) => snapshot.has(id));
          const deleted = ids.filter((_, i) => outcomes[i] === 'deleted');
          return { outcomes, changes: { ids: deleted, lines: deleted.map(deleteLine), deleted: true } };
        }),
    };
  }

  /**
   * One write: decided on the store as it is, folded first when due, appended, and once durable,
   * the next snapshot. Each change on disk confirms the lease first. A failure forgets the snapshot:
   * the next call reads the files again rather than trust what this one may have left half done.
   */
  private async write<O>(lease: HeldLock, decide: (snapshot: Snapshot) => { outcomes: O[]; changes: Changes }): Promise<O[]> {
    try {
      let snapshot = this.current();
      const { outcomes, changes } = decide(snapshot);
      const { ids, lines } = changes;
      if (lines.length === 0) return outcomes;
      if (this.folds.due(snapshot, lines.length)) snapshot = this.fold(snapshot, lease);
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
      snapshot = snapshot.appended(ids, values, file, file.size);
      this.wrote = true;
      // A long run of writes (a server) indexes its tail as it grows, at doubling sizes: O(1) a line.
      this.snapshot = snapshot.tail.lines > Math.max(INDEX_IN_A_RUN, snapshot.index.size) ? this.files.writeIndex(snapshot) : snapshot;
      return outcomes;
    } catch (error) {
      this.forget();
      throw error;
    }
  }

  /**
   * Folds the journal into a new store file. A fold is an optimisation: one that fails before its
   * rename (ENOSPC, EIO) changed nothing, so the write appends to the snapshot as it was. One that
   * fails after it fails the write, with effect none: the new file holds only plants already
   * acknowledged, and the write's own lines were never appended. The journal stays then: should a
   * crash bring the old store file back, it makes that one whole; over the new one, it changes
   * nothing.
   */
  private fold(snapshot: Snapshot, lease: HeldLock): Snapshot {
    let entries;
    try {
      entries = writeFold(this.files.fs, this.path, snapshot, lease);
    } catch (error) {
      if (error instanceof RenamedNotDurable) throw storeIoError(this.path, 'fsync the directory of', error.cause);
      // A store file or journal that could not be read says so itself; a bug fails the write as before.
      if (isPlantsError(error)) throw error;
      if (!(error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string')) throw storeIoError(this.path, 'write', error);
      this.folds.failed(snapshot);
      return snapshot;
    }
    this.folds.done();
    this.forget();
    this.appender.close();
    // Another holder may have appended to the journal, which the new file does not hold: confirmed before it goes.
    const folded = this.files.afterFold(entries, () => lease.confirm());
    return (this.snapshot = folded.storeFile.plants >= INDEX_WORTH ? this.files.writeIndex(folded) : folded);
  }

  /**
   * A read, on one snapshot. While this process holds the lease, its last write's: no other
   * process writes. Else the files as they are now; a read that fails as they change under it (a
   * fold removed the journal it was reading a line of, an append cut a torn tail and wrote over it
   * as it was read) is tried again, and after three tries spoiled by writers, under the lock.
   */
  private async read<T>(work: (snapshot: Snapshot) => T): Promise<T> {
    if (this.lease !== undefined && this.snapshot !== undefined) return work(this.snapshot);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const stamp = this.files.stamp();
      try {
        return work(this.current(stamp));
      } catch (error) {
        // Files that did not change: the failure is the answer. A bug is not the files' doing.
        if (!isPlantsError(error) || sameStamp(stamp, this.files.stamp())) throw error;
        this.forget();
      }
    }
    return this.hold(async () => work(this.current()));
  }

  /** The snapshot of the files as they are: the one kept, with what was appended since, or read anew. */
  private current(stamp: Stamp = this.files.stamp()): Snapshot {
    const kept = this.snapshot;
    const journal = kept?.journal;
    if (kept !== undefined && journal !== undefined && kept.storeStamp === stamp.store && (journal.file.ino === stamp.journal.ino || journal.wholeBytes === 0) && stamp.journal.size >= journal.wholeBytes) {
      if (stamp.journal.size !== journal.file.size || stamp.journal.ino !== journal.file.ino) this.snapshot = this.files.readOn(kept, stamp.journal);
      return this.snapshot as Snapshot;
    }
    this.forget();
    for (let look = 1; ; look += 1) {
      const opened = this.files.open(stamp);
      if (opened !== undefined) return (this.snapshot = opened);
      // The store file was replaced between the look and its opening (another process folded).
      if (look === 3) throw storeIoError(this.path, 'read', new Error('the store file changed each time it was opened'));
      stamp = this.files.stamp();
    }
  }

  private forget(): void {
    this.files.forget(this.snapshot);
    this.snapshot = undefined;
  }
}

function isMine(lease: HeldLock): boolean {
  try {
    lease.confirm();
    return true;
  } catch {
    return false;
  }
}

function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.store === b.store && a.journal.ino === b.journal.ino && a.journal.size === b.journal.size;
}
