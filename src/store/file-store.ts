import { readlinkSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PlantsError } from '../core/errors.js';
import { IdMap } from '../core/id-map.js';
import { canonicalPlant, encodePlant } from '../core/plant-json.js';
import type { NewPlant } from '../core/schemas.js';
import { decideAdds, decideDeletes, type AddOutcome, type DeleteOutcome, type ListQuery, type PlantStore } from '../core/store.js';
import { RenamedNotDurable, replaceFileSync } from '../fs/durable-file.js';
import { NODE_FS, type FileSystem } from '../fs/file-system.js';
import { deleteLine, JournalAppender, JournalLines, journalPathOf, readJournal, removeJournal, statJournal, type JournalFile, type JournalOp, type JournalOps } from './journal.js';
import { statFile, storeIoError } from './store-errors.js';
import { StoreFileIndex } from './store-file-index.js';
import { indexStoreFile, writeStoreFile, type LineChange } from './store-file.js';
import { lockStore, type HeldLock } from './store-lock.js';

export interface FileStoreOptions {
  /** How long to wait for another process's lock before giving up with `store_locked` (default 30 s). */
  lockWaitMs?: number;
  /** Called when a write has waited a second for another process's lock, and is still waiting. */
  onLockWait?: () => void;
  /** The file system writes go through: node:fs, or in tests one that fails as a full disk does. */
  fs?: FileSystem;
  /**
   * The journal is folded into the store file when a write would make it more than this many
   * lines and more lines than the store file has plants: folds come at doubling sizes, so their
   * cost stays O(plants) in all (an import into an empty store writes each plant about twice).
   * Default 100,000: reading a store cold costs about the same from journal lines as from the
   * store file, so folding a small store sooner buys its readers nothing, and costs an import
   * (100,000 rows into an empty store: a third more time with folds from 10,000 on). Tests fold
   * small stores with less.
   */
  foldAt?: number;
}

/** See FileStoreOptions.foldAt. */
export const DEFAULT_FOLD_AT = 100_000;

/**
 * A fold confirms its lock, which renews it, each time it has written about this much: it writes
 * synchronously, so the lock's refresh timer cannot run meanwhile, and the fold of a store of
 * millions of plants on a slow disk may outlast STALE_MS; a waiter would then take the lock over,
 * and append to the journal the fold removes. Often enough that only a disk writing less than this
 * in a refresh interval lets the lock look stale; seldom enough to cost nothing beside the writes.
 */
const RENEW_EVERY_BYTES = 4 * 1024 * 1024;

/** The files on disk as last read: unchanged (no other process wrote), what was read still holds. */
interface Stamp {
  /** The store file's inode, size, mtime and ctime: it is only ever replaced, never changed in place. */
  store: string;
  /** The journal only grows (or goes, at a fold, with the store file replaced). */
  journal: JournalFile;
}

/** The journal as read: each id's state, and what a fold and the next append need. */
interface Journal {
  ops: JournalOps;
  lines: number;
  wholeBytes: number;
  /** The ids of `ops` in order, for a page of `list`; made when first asked for after a change. */
  sorted?: BigInt64Array;
}

/** The store as this process last read it, for as long as the stamp says the files are unchanged. */
interface Snapshot {
  stamp: Stamp;
  base: StoreFileIndex;
  journal: Journal;
}

/**
 * The JSON file store: `<store>` (store-file.ts), the plants in id order, and `<store>.journal`
 * (journal.ts), the changes since. Every write takes the cross-process lock (store-lock.ts),
 * appends its lines to the journal, fsynced, and is acknowledged only then; when the journal
 * outgrows `foldAt` and the store file, the write first folds it into a new store file (written in
 * full, fsynced, renamed: durable-file.ts). Reads take a snapshot that the lock keeps consistent.
 * Nothing is held between calls but the snapshot: the ids of the store file and its open file
 * (store-file-index.ts), and the journal's lines, re-read only when another process changed the
 * files (and then, if it only appended, only what it appended).
 */
export class FileStore implements PlantStore {
  readonly path: string;
  private readonly journalPath: string;
  private readonly appender: JournalAppender;
  private readonly journalLines: JournalLines;
  private readonly fs: FileSystem;
  private snapshot: Snapshot | undefined;
  /**
   * Set by a fold that failed before its rename (a full disk: the store file and the journal are as
   * they were, and the write appended instead): the journal it was to fold, and the lines that
   * journal must outgrow, another threshold's worth, before a fold is tried again. Until then writes
   * only append, where each would otherwise rewrite the whole store file to fail again. A fold that
   * succeeds clears it; another journal (another process folded) leaves it without effect.
   */
  private foldPostponed: { journal: bigint | undefined; untilLines: number } | undefined;
  /** One call at a time in this process: each sees the store as the one before left it. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * The lock, kept after a call that held it until the event loop's next turn (`release`), so that
   * the calls of a busy server, queued one after the other, take it once and not with a mkdir and
   * an rmdir each, which cost much of what `plants serve` could answer (docs/performance.md).
   * Another process waits for a pause, as for one long write; each change on disk still confirms
   * the lock first.
   */
  private heldLock: { lock: HeldLock; release: NodeJS.Immediate } | undefined;

  private constructor(
    path: string,
    private readonly options: FileStoreOptions,
  ) {
    this.path = realStorePath(path);
    this.journalPath = journalPathOf(this.path);
    this.fs = options.fs ?? NODE_FS;
    this.appender = new JournalAppender(this.journalPath, this.fs);
    this.journalLines = new JournalLines(this.journalPath, this.fs);
  }

  /** The store at `path` (created on the first write), read and checked now: one not ours is `store_corrupt`. */
  static async open(path: string, options: FileStoreOptions = {}): Promise<FileStore> {
    const store = new FileStore(path, options);
    await store.reading(() => undefined);
    return store;
  }

  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return this.writing(async (snapshot, lock) => {
      const outcomes = decideAdds(plants, (id) => has(snapshot, id));
      const added = plants.filter((_, i) => outcomes[i] === 'added').map((plant) => ({ id: plant.id, line: encodePlant(plant) }));
      await this.append(snapshot, lock, added.map(({ line }) => line), added);
      return outcomes;
    });
  }

  deleteAll(ids: readonly bigint[]): Promise<DeleteOutcome[]> {
    return this.writing(async (snapshot, lock) => {
      const outcomes = decideDeletes(ids, (id) => has(snapshot, id));
      const deleted = ids.filter((_, i) => outcomes[i] === 'deleted').map((id) => ({ id, line: null }));
      await this.append(snapshot, lock, deleted.map(({ id }) => deleteLine(id)), deleted);
      return outcomes;
    });
  }

  get(id: bigint): Promise<NewPlant | undefined> {
    return this.reading((snapshot) => {
      const op = snapshot.journal.ops.get(id);
      if (op !== undefined) return op === null ? undefined : plantOfLine(this.journalLine(snapshot, op));
      return snapshot.base.has(id) ? plantOfLine(snapshot.base.lineAt(snapshot.base.after(id) - 1)) : undefined;
    });
  }

  list(query: ListQuery): Promise<NewPlant[]> {
    return this.reading((snapshot) => pageOf(snapshot, query, (op) => this.journalLine(snapshot, op)));
  }

  /** Waits for the calls under way, and closes the files kept open (the store file, the journal). */
  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    if (this.heldLock !== undefined) {
      clearImmediate(this.heldLock.release);
      this.heldLock.lock.release();
      this.heldLock = undefined;
    }
    this.appender.close();
    this.forget();
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A read, on a snapshot that holds. The one kept, while the files' stamps are as it saw them (a
   * stat of each). Else the files are read again without the lock, which a read-only store could
   * not take, and the stamps checked once more: unchanged, no other process wrote meanwhile, so
   * what was read is one state of the store (a fold in between would have replaced the store file
   * and removed the journal). A read that fails as the files change under it is a try spoiled the
   * same way, whatever it failed with: a fold removed the journal it was reading a line of
   * (store_io), or an append cut a torn tail and wrote over it between two of its reads, and the
   * bytes read look corrupt (store_corrupt). After three tries spoiled by writers, under the lock.
   * The callback reads synchronously, so no write of this process comes between.
   */
  private reading<T>(read: (snapshot: Snapshot) => T): Promise<T> {
    return this.enqueue(async () => {
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const stamp = this.stamp();
        try {
          const kept = this.snapshot;
          if (kept !== undefined && sameStamp(kept.stamp, stamp)) return read(kept);
          const snapshot = this.current();
          if (sameStamp(snapshot.stamp, this.stamp())) return read(snapshot);
        } catch (error) {
          // Files that did not change: the failure is the answer. A bug is not the files' doing.
          if (!(error instanceof PlantsError) || sameStamp(stamp, this.stamp())) throw error;
          this.forget();
        }
      }
      const lock = await this.takeLock();
      try {
        return read(this.current());
      } finally {
        this.keepLock(lock);
      }
    });
  }

  /**
   * A write, under the lock, on the current snapshot; the write confirms the lock right before each
   * change it makes on disk. A failure forgets the snapshot: the next call reads the files again
   * rather than trust what this one may have left half done.
   */
  private writing<T>(write: (snapshot: Snapshot, lock: HeldLock) => Promise<T>): Promise<T> {
    return this.enqueue(async () => {
      const lock = await this.takeLock();
      let result: T;
      try {
        result = await write(this.current(), lock);
      } catch (error) {
        this.forget();
        lock.release();
        throw error;
      }
      this.keepLock(lock);
      return result;
    });
  }

  /**
   * The lock: the one kept from the call before, if this turn of the event loop queued this call
   * and it is still this process's, else taken anew. One kept may have been lost meanwhile (the
   * process stalled and it was taken over, or someone removed it): this call then waits for it as
   * after a pause, where using it would fail its first change with store_locked.
   */
  private takeLock(): Promise<HeldLock> {
    const held = this.heldLock;
    if (held !== undefined) {
      clearImmediate(held.release);
      this.heldLock = undefined;
      try {
        held.lock.confirm();
        return Promise.resolve(held.lock);
      } catch {
        held.lock.release();
      }
    }
    return lockStore(this.path, this.options.lockWaitMs ?? 30_000, this.options.onLockWait, this.fs);
  }

  private keepLock(lock: HeldLock): void {
    this.heldLock = {
      lock,
      release: setImmediate(() => {
        this.heldLock = undefined;
        lock.release();
      }),
    };
  }

  /**
   * Appends the lines of one call's changes to the journal (folding it into the store file first,
   * when it has grown enough), and once they are durable, records the changes in the snapshot.
   */
  private async append(before: Snapshot, lock: HeldLock, lines: string[], changes: { id: bigint; line: string | null }[]): Promise<void> {
    if (lines.length === 0) return;
    const snapshot = before.journal.lines + lines.length > this.foldsPast(before) ? this.fold(before, lock) : before;
    const { journal } = snapshot;
    // Where each line will start: the append cuts any torn tail back to the whole lines first.
    const starts: number[] = [];
    let start = journal.wholeBytes;
    for (const line of lines) {
      starts.push(start);
      start += Buffer.byteLength(line) + 1;
    }
    // Nothing yields between this look and the append's first change (the cut of a torn tail, or its write).
    lock.confirm();
    snapshot.stamp.journal = await this.appender.append(lines, snapshot.stamp.journal, journal.wholeBytes);
    journal.wholeBytes = snapshot.stamp.journal.size;
    journal.lines += lines.length;
    changes.forEach(({ id, line }, i) => journal.ops.set(id, line === null ? null : (starts[i] as number)));
    delete journal.sorted;
  }

  /**
   * The journal lines past which a write folds first: more than `foldAt` and than the store file
   * has plants, so that folds come at doubling sizes; later, after a fold that failed.
   */
  private foldsPast(snapshot: Snapshot): number {
    const postponed = this.foldPostponed;
    const threshold = this.foldThreshold(snapshot);
    return postponed !== undefined && postponed.journal === snapshot.stamp.journal.ino ? Math.max(threshold, postponed.untilLines) : threshold;
  }

  private foldThreshold(snapshot: Snapshot): number {
    return Math.max(this.options.foldAt ?? DEFAULT_FOLD_AT, snapshot.base.size);
  }

  /**
   * Writes the plants of the snapshot into a new store file, in id order (the store file's lines,
   * the journal's where it has one, none where it deleted one), replaces the store file with it,
   * and removes the journal. Returns the snapshot that follows, which is also kept: the new file
   * and an empty journal. A fold is an optimisation: one that fails before its rename (ENOSPC, EIO)
   * changed nothing, so it returns the snapshot as it was, for the write to append to, and is not
   * tried again for a while (foldPostponed). One that fails after it fails the write, with effect
   * none: the new file holds only plants already acknowledged, and the write's own lines were
   * never appended.
   */
  private fold(snapshot: Snapshot, lock: HeldLock): Snapshot {
    const ids = journalIds(snapshot.journal);
    const count = countAfterFold(snapshot, ids);
    let written: ReturnType<typeof writeStoreFile> | undefined;
    try {
      const changes = changesOf(snapshot, ids, (op) => this.journalLine(snapshot, op));
      let unrenewed = 0;
      const renewing = (write: (chunk: string | Uint8Array) => void) => (chunk: string | Uint8Array) => {
        write(chunk);
        // Characters of a string, not bytes: about as many, and as often as needed.
        unrenewed += chunk.length;
        if (unrenewed >= RENEW_EVERY_BYTES) {
          unrenewed = 0;
          lock.confirm();
        }
      };
      replaceFileSync(this.path, (write) => (written = writeStoreFile(renewing(write), snapshot.base, changes, count)), { fs: this.fs, beforeRename: () => lock.confirm() });
    } catch (error) {
      // The journal stays: should a crash bring the old store file back, the journal is what makes
      // it whole; read over the new file, which holds its lines, it changes nothing.
      if (error instanceof RenamedNotDurable) throw storeIoError(this.path, 'fsync the directory of', error.cause);
      // A store file or journal that could not be read says so itself; a bug fails the write as before.
      if (error instanceof PlantsError) throw error;
      if (!isFileSystemError(error)) throw storeIoError(this.path, 'write', error);
      this.foldPostponed = { journal: snapshot.stamp.journal.ino, untilLines: snapshot.journal.lines + this.foldThreshold(snapshot) };
      return snapshot;
    }
    this.foldPostponed = undefined;
    this.forget();
    this.appender.close();
    const { ids: newIds, starts, lengths } = written as NonNullable<typeof written>;
    let base: StoreFileIndex | undefined;
    try {
      base = StoreFileIndex.inFile(this.fs.openSync(this.path, 'r'), newIds, starts, lengths);
      // Another holder may have appended to the journal, which the new file does not hold.
      lock.confirm();
      removeJournal(this.journalPath, this.fs);
      this.snapshot = { stamp: this.stamp(), base, journal: { ops: new IdMap(), lines: 0, wholeBytes: 0 } };
      return this.snapshot;
    } catch (error) {
      // The next call reads the files again (a journal left behind is folded in harmlessly).
      base?.close();
      throw error instanceof PlantsError ? error : storeIoError(this.path, 'reopen after writing', error);
    }
  }

  /**
   * The snapshot, made current: read again if another process changed the files (only its appends,
   * if that is all it did). Its stamp is the files' as they were before reading them.
   */
  private current(): Snapshot {
    const stamp = this.stamp();
    const kept = this.snapshot;
    if (kept !== undefined && kept.stamp.store === stamp.store) {
      const { journal } = kept;
      if (kept.stamp.journal.ino === stamp.journal.ino && stamp.journal.size >= journal.wholeBytes) {
        if (stamp.journal.size !== kept.stamp.journal.size) {
          const read = readJournal(this.journalPath, journal.wholeBytes, journal.ops, this.fs);
          journal.lines += read.lines;
          journal.wholeBytes = read.wholeBytes;
          delete journal.sorted;
        }
        kept.stamp = stamp;
        return kept;
      }
    }
    this.forget();
    const base = indexStoreFile(this.path) ?? StoreFileIndex.empty();
    try {
      const ops: JournalOps = new IdMap();
      const read = readJournal(this.journalPath, 0, ops, this.fs);
      this.snapshot = { stamp, base, journal: { ops, lines: read.lines, wholeBytes: read.wholeBytes } };
      return this.snapshot;
    } catch (error) {
      base.close();
      throw error;
    }
  }

  private forget(): void {
    this.snapshot?.base.close();
    this.snapshot = undefined;
    this.journalLines.close();
  }

  /** The line of a journal op that is not a deletion: read from the journal, where it stays. */
  private journalLine(snapshot: Snapshot, op: number | string): string {
    return typeof op === 'string' ? op : this.journalLines.lineAt(op, snapshot.stamp.journal, snapshot.journal.wholeBytes);
  }

  private stamp(): Stamp {
    const info = statFile(this.path);
    return { store: info === undefined ? 'absent' : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`, journal: statJournal(this.journalPath) };
  }
}

/** The line of a journal op: from the journal file where it is a position. */
type LineOf = (op: Exclude<JournalOp, null>) => string;

/** A failure of a file system call (ENOSPC, EIO…), as node:fs throws it: not a bug. */
function isFileSystemError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.store === b.store && a.journal.ino === b.journal.ino && a.journal.size === b.journal.size;
}

function has(snapshot: Snapshot, id: bigint): boolean {
  const op = snapshot.journal.ops.get(id);
  return op !== undefined ? op !== null : snapshot.base.has(id);
}

function journalIds(journal: Journal): BigInt64Array {
  // A typed array sorts natively, without calling back into JavaScript for each comparison.
  journal.sorted ??= journal.ops.ids().sort();
  return journal.sorted;
}

/** A line this store wrote or checked: canonical, so read by the fast path. */
function plantOfLine(line: string): NewPlant {
  const plant = canonicalPlant(line);
  if (plant === undefined) throw new Error(`not a canonical plant line: ${line}`);
  return plant;
}

/**
 * The lines of the store file and the journal together, in id order, from the position of each
 * after which the page starts: where both name an id, the journal's line (or deletion) is its state.
 */
function* merged(snapshot: Snapshot, ids: BigInt64Array, from: { base: number; journal: number }, lineOf: LineOf): Generator<string> {
  const { base, journal } = snapshot;
  let i = from.base;
  let j = from.journal;
  while (i < base.size || j < ids.length) {
    const baseId = i < base.size ? base.idAt(i) : undefined;
    const journalId = j < ids.length ? (ids[j] as bigint) : undefined;
    if (journalId !== undefined && (baseId === undefined || journalId <= baseId)) {
      j += 1;
      if (journalId === baseId) i += 1;
      const op = journal.ops.get(journalId);
      if (op !== null && op !== undefined) yield lineOf(op);
    } else {
      i += 1;
      yield base.lineAt(i - 1);
    }
  }
}

/** The journal's changes, in id order, for a fold. */
function* changesOf(snapshot: Snapshot, ids: BigInt64Array, lineOf: LineOf): Generator<LineChange> {
  for (const id of ids) {
    const op = snapshot.journal.ops.get(id) ?? null;
    yield { id, line: op === null ? null : lineOf(op) };
  }
}

/** How many plants a fold writes: the store file's, plus the journal's new ids, less its deletions. */
function countAfterFold(snapshot: Snapshot, ids: BigInt64Array): number {
  let count = snapshot.base.size;
  for (const id of ids) {
    const inBase = snapshot.base.has(id);
    const line = snapshot.journal.ops.get(id);
    if (line === null && inBase) count -= 1;
    if (line !== null && !inBase) count += 1;
  }
  return count;
}

function pageOf(snapshot: Snapshot, { after, limit, tag }: ListQuery, lineOf: LineOf): NewPlant[] {
  const ids = journalIds(snapshot.journal);
  const from = after === undefined ? { base: 0, journal: 0 } : { base: snapshot.base.after(after), journal: upperBound(ids, after) };
  const page: NewPlant[] = [];
  if (limit <= 0) return page;
  for (const line of merged(snapshot, ids, from, lineOf)) {
    const plant = plantOfLine(line);
    if (tag !== undefined && plant.tag !== tag) continue;
    page.push(plant);
    if (page.length >= limit) break;
  }
  return page;
}

/** The position of the first of the ascending `ids` greater than `id`. */
function upperBound(ids: BigInt64Array, id: bigint): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] as bigint) <= id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The file a store path names, symlinks followed: the store file is replaced where the link
 * points, never the link itself, so the lock and the journal must be that file's too, or a process
 * writing through the link and one writing to the file would each hold a lock of its own. A
 * dangling link names its target, which the first write creates (with its directory). A store not
 * created yet is named as given.
 */
function realStorePath(path: string): string {
  let current = resolve(path);
  // A loop of links stops here; the first read or write then reports ELOOP.
  for (let hops = 0; hops < 40; hops += 1) {
    try {
      return realpathSync(current);
    } catch {
      // Absent, or a link to something absent: follow the link by hand, where realpath gives up.
    }
    try {
      current = resolve(dirname(current), readlinkSync(current));
    } catch {
      // Not a link (absent, or unreadable: the first read or write says why).
      return current;
    }
  }
  return current;
}
