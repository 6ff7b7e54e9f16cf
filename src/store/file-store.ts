// fs.promises, not node:fs/promises: see journal.ts.
import { promises as fs, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { NewPlant } from '../core/schemas.js';
import { addEachNew, type AddOutcome, type PlantStore } from '../core/store.js';
import { journalBytes, JournalAppender, journalPathOf, readJournal, removeJournal, statJournal, type JournalFile } from './journal.js';
import { encodePlant } from '../core/plant-line.js';
import { plantOfLine } from './plant-lines.js';
import { statFile, storeIoError, storeMaybeWrittenError } from './store-errors.js';
import { appendToStoreFile, decodeStoreLines, encodeStoreLines } from './store-file.js';
import { lockStore, storeLockedError, type HeldLock } from './store-lock.js';
import { NODE_FS, RenamedNotDurable, replaceFileSync, type FileSystem } from './durable-file.js';

export interface FileStoreOptions {
  /** How long to wait for another process's lock before giving up with `store_locked` (default 30 s). */
  lockWaitMs?: number;
  /** Called when a write has waited a second for another process's lock, and is still waiting. */
  onLockWait?: () => void;
  /**
   * Append new plants to `<store>.journal` instead of rewriting the store file (a server's many
   * small batches, an import's many large ones). Without it, every write leaves the whole store
   * in the store file.
   */
  journal?: boolean;
  /** The file system writes go through: node:fs, or in tests one that fails as a full disk does. */
  fs?: FileSystem;
}

/**
 * A journal is folded into the store file when it would hold more than this many plants and more
 * than the store file: folds come at doubling sizes, so their cost stays O(plants) in all.
 */
const COMPACT_AT = 10_000;

/**
 * What a FileStore keeps between writes: the ids only (a million plants cost ~60 MB, not ~250),
 * since the plants themselves are on disk and only a rewrite needs them.
 */
interface State {
  /** The files on disk as this state knows them (see OnDisk). */
  onDisk: OnDisk;
  ids: Set<bigint>;
  journalPlants: number;
  /** The journal's bytes up to its last whole line. */
  journalBytes: number;
  /** The files are no longer what this state says: read them again before the next write. */
  stale?: boolean;
  /**
   * The store file is in our layout, and the journal repeats none of its plants: folding is then
   * a matter of bytes (appendToStoreFile). Otherwise it goes plant by plant.
   */
  foldsAsText: boolean;
  /**
   * The store file as `load` read it (undefined: there was none), for a rewrite in the same locked
   * call, so that a create reads the store once. Dropped after that call: between writes, ids only.
   */
  read?: { storeFile: Buffer | undefined };
}

/**
 * Which version of the files is on disk. The store file is only ever replaced (a new inode, a new
 * mtime); the journal only grows, or goes. So a state is still current when the store file's stat
 * and the journal's inode and size are what it last saw: then no other process wrote.
 */
interface OnDisk {
  store: string;
  journal: JournalFile;
}

function sameFiles(a: OnDisk, b: OnDisk): boolean {
  return a.store === b.store && a.journal.ino === b.journal.ino && a.journal.size === b.journal.size;
}

/**
 * The JSON file store. Every change happens under a cross-process lock (store-lock.ts). The store
 * file is only ever replaced whole: written in full to a temp file, fsynced, checked, renamed, the
 * directory fsynced (durable-file.ts), so readers, killed writers and full disks never see a part
 * of one. With the `journal` option, batches are appended to the journal instead (journal.ts).
 *
 * Appends are asynchronous, so that a server gathers its next batch while the disk works.
 * Everything else (reading but for a fold's, stat, the lock, rewrites) is synchronous: a stat or a
 * mkdir takes microseconds, where a trip through libuv's thread pool and back costs ~0.3 ms, and a
 * rewrite is what a command waits for (a server rewrites only to fold its journal, rarely).
 */
export class FileStore implements PlantStore {
  private cache: State | undefined;
  private queue: Promise<void> = Promise.resolve();
  private held: HeldLock | undefined;
  private releaseSoon: NodeJS.Immediate | undefined;
  readonly journalPath: string;
  private readonly appender: JournalAppender;

  readonly path: string;

  constructor(
    path: string,
    private readonly options: FileStoreOptions = {},
  ) {
    this.path = realStorePath(path);
    this.journalPath = journalPathOf(this.path);
    this.appender = new JournalAppender(this.journalPath, options.fs);
  }

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return this.locked(async (state) => {
      const added: string[] = [];
      const outcomes = addEachNew(plants, state.ids, (plant) => {
        state.ids.add(plant.id);
        added.push(encodePlant(plant));
      });
      if (added.length === 0) return outcomes;
      const journalPlants = state.journalPlants + added.length;
      if (this.options.journal === true && (journalPlants <= COMPACT_AT || journalPlants <= state.ids.size / 2)) {
        state.onDisk.journal = await this.appender.append(added, state.onDisk.journal, state.journalBytes);
        state.journalBytes = state.onDisk.journal.size;
        state.journalPlants = journalPlants;
      } else {
        await this.rewrite(state, added);
      }
      return outcomes;
    });
  }

  /**
   * Folds the journal into the store file, so that the store file alone holds every plant. With
   * no journal there is nothing to do, and nothing is locked (a store in a read-only place).
   */
  async compact(): Promise<void> {
    if (statJournal(this.journalPath).ino === undefined) return;
    await this.locked(async (state) => {
      if (state.onDisk.journal.ino !== undefined) await this.rewrite(state, []);
    });
  }

  /** Closes the journal file kept open between appends (the store stays usable: it reopens). */
  async close(): Promise<void> {
    await this.queue;
    this.appender.close();
  }

  /** Every plant on disk now (store file and journal), read without the lock. */
  async read(): Promise<Map<bigint, NewPlant>> {
    const plants = new Map<bigint, NewPlant>();
    for (const [id, line] of this.lines()) plants.set(id, plantOfLine(line));
    return plants;
  }

  /** Reads and checks the store now (throws `store_corrupt` for one that is not ours), and keeps it for the next write. */
  async open(): Promise<void> {
    const state = this.load(this.onDisk());
    delete state.read;
    this.cache = state;
  }

  /**
   * Runs `work` on the current state under the lock, one call at a time. The state is kept for
   * the next call, and re-read only if another process changed the files meanwhile: a
   * long-running server stays O(batch) per write, yet sees what a `--local` create added.
   */
  private locked<T>(work: (state: State) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => this.lockedNow(work));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async lockedNow<T>(work: (state: State) => Promise<T>): Promise<T> {
    // A lock still held from the call just before: nobody else can have written since.
    let lock = this.held;
    const state = lock !== undefined ? this.cache : undefined;
    await this.keepLock(undefined);
    lock ??= await lockStore(this.path, this.options.lockWaitMs ?? 30_000, this.options.onLockWait);
    try {
      let current = state;
      if (current === undefined) {
        const onDisk = this.onDisk();
        current = this.cache !== undefined && sameFiles(this.cache.onDisk, onDisk) ? this.cache : this.load(onDisk);
      }
      // `work` changes the state in place, so until it has written, the cache is not what is on disk.
      this.cache = undefined;
      // A lock we lost (this process stalled past its staleness) may be another writer's now.
      if (lock.lost) throw storeLockedError(this.path, lock.lost);
      const result = await work(current);
      delete current.read;
      // An append keeps state.onDisk up to date itself; a rewrite replaced the store file. Failing
      // to learn its stat now only means reading the files again next time.
      if (current.onDisk.store === '') {
        try {
          current.onDisk = this.onDisk();
        } catch {
          current.stale = true;
        }
      }
      this.cache = current.stale === true ? undefined : current;
      await this.keepLock(lock);
      return result;
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  /**
   * Keeps the lock after a write until the event loop turns, for the write queued right behind it
   * (a busy server's next batch): no lock, unlock or re-check of the files between batches. Any
   * pause releases it, and other processes get their turn. Without the journal, released at once.
   */
  private async keepLock(lock: HeldLock | undefined): Promise<void> {
    if (this.releaseSoon !== undefined) clearImmediate(this.releaseSoon);
    this.releaseSoon = undefined;
    this.held = undefined;
    if (lock === undefined) return;
    if (this.options.journal !== true) {
      lock.release();
      return;
    }
    this.held = lock;
    this.releaseSoon = setImmediate(() => {
      this.held = undefined;
      this.releaseSoon = undefined;
      lock.release();
    });
  }

  private load(onDisk: OnDisk): State {
    const storeFile = this.storeFileBytes();
    const stored = decodeStoreFile(storeFile, this.path);
    const journal = readJournal(this.journalPath);
    const ids = new Set(stored.plants.keys());
    let journalRepeats = false;
    for (const { id } of journal.plants) {
      if (ids.has(id)) journalRepeats = true;
      else ids.add(id);
    }
    return { onDisk, ids, journalPlants: journal.plants.length, journalBytes: journal.wholeBytes, foldsAsText: stored.ourLayout && !journalRepeats, read: { storeFile } };
  }

  /** Every plant as its line, by id: the store file's (as given, or read now), then the journal's it does not repeat. */
  private lines(read?: State['read']): Map<bigint, string> {
    const lines = decodeStoreFile(read !== undefined ? read.storeFile : this.storeFileBytes(), this.path).plants;
    for (const { id, line } of readJournal(this.journalPath).plants) {
      // An id the store file holds already was folded into it by a compaction the journal outlived.
      if (!lines.has(id)) lines.set(id, line);
    }
    return lines;
  }

  /** The store file's bytes; undefined if there is none yet. */
  private storeFileBytes(): Buffer | undefined {
    try {
      return readFileSync(this.path);
    } catch (error) {
      return noStoreFile(this.path, error);
    }
  }

  /**
   * The same, read asynchronously, for a fold: unlike the reads above, measured worse in sync. A
   * 1,000,000-row import --local peaked at 390-430 MB with a synchronous read here, 300-310 MB with
   * this one (6 runs each): while the disk works, V8's collector frees the previous fold's buffers.
   */
  private async storeFileBytesToFold(): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.path);
    } catch (error) {
      return noStoreFile(this.path, error);
    }
  }

  /**
   * Replaces the store file with every plant on disk plus `added`, durably, then drops the journal.
   * The files are as `state` found them (the lock is held), so in the usual case the new store is
   * the old text with the journal's lines and the new ones appended: no plant is parsed again.
   */
  private async rewrite(state: State, added: readonly string[]): Promise<void> {
    let file: Buffer | string;
    if (state.foldsAsText) {
      const journal = journalBytes(this.journalPath, state.journalBytes);
      const lines = added.length === 0 ? journal : Buffer.concat([journal, Buffer.from(`${added.join('\n')}\n`)]);
      file = appendToStoreFile(state.read !== undefined ? state.read.storeFile : await this.storeFileBytesToFold(), lines);
    } else {
      file = encodeStoreLines([...this.lines(state.read).values(), ...added]);
    }
    await this.write(file);
    // From here the plants are stored: what follows must not report them as not created.
    if (state.onDisk.journal.ino !== undefined) {
      try {
        removeJournal(this.journalPath);
        this.appender.close();
      } catch {
        // A journal left behind repeats what the store file now holds, which every read skips;
        // the next write reads the files again and folds it away.
        state.stale = true;
      }
    }
    state.journalPlants = 0;
    state.journalBytes = 0;
    state.foldsAsText = true;
    // The store file is new: its stat is taken once the work is done.
    state.onDisk = { store: '', journal: { ino: undefined, size: 0 } };
  }

  /** Replaces the store file durably (protected: tests make it fail). */
  protected async write(file: Buffer | string): Promise<void> {
    try {
      replaceFileSync(this.path, file, { fs: this.options.fs ?? NODE_FS });
    } catch (error) {
      // Renamed into place, so readers see the new file; it may not survive a crash.
      if (error instanceof RenamedNotDurable) throw storeMaybeWrittenError(this.path, 'fsync the directory of', error.cause);
      throw storeIoError(this.path, 'write', error);
    }
  }

  private onDisk(): OnDisk {
    return { store: storeStamp(this.path), journal: statJournal(this.journalPath) };
  }
}

/** A store file's plants as their lines, and whether it is in our layout. No file: no plants. */
function decodeStoreFile(bytes: Buffer | undefined, path: string): { plants: Map<bigint, string>; ourLayout: boolean } {
  return bytes === undefined ? { plants: new Map(), ourLayout: true } : decodeStoreLines(bytes.toString('utf8'), path);
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

function noStoreFile(path: string, error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
  throw storeIoError(path, 'read', error);
}

function storeStamp(path: string): string {
  const info = statFile(path);
  return info === undefined ? 'absent' : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}
