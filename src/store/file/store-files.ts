import { dirname, resolve } from 'node:path';
import type { FileSystem } from '../../fs/file-system.js';
import { JournalReader, journalId, journalPathOf, readJournal, removeJournal, type JournalFile } from './wal.js';
import { JournalTail } from './wal-tail.js';
import { Snapshot } from './snapshot.js';
import { SortedEntries, type Entries } from './sorted-entries.js';
import { statFile, storeIoError } from '../store-errors.js';
import { isReadOnly } from './read-only.js';
import { readDatabaseWhole } from './normalise.js';
import { DatabaseReader, fileBytes, memoryBytes } from './database-reader.js';
import { EMPTY } from './database-file.js';
import { indexPathOf, openIndex, storeStamp, vouches, writeIndex } from './wal-index.js';

/** Journal lines a reader reads as they are, past what the index holds: past this many, an index is written. */
export const INDEX_WORTH = 1_000;

/** The store's files as a look at them finds them: the store file's stamp, and the journal. */
export interface Stamp {
  store: string;
  journal: JournalFile;
}

/**
 * The files of one store on disk (the store file, `.journal`, `.index`) and how a snapshot is read
 * from them: the store file read where needed if its index vouches for it, else read whole and
 * checked (normalise.ts); the journal from where the index stops. Every call goes through `fs`.
 */
export class StoreFiles {
  readonly journalPath: string;
  readonly indexPath: string;
  /** The journal, open for reading its lines while it is the same file. */
  private reader: { id: bigint; reader: JournalReader } | undefined;

  constructor(
    readonly fs: FileSystem,
    readonly path: string,
  ) {
    this.journalPath = journalPathOf(path);
    this.indexPath = indexPathOf(path);
  }

  stamp(): Stamp {
    const journal = statFile(this.fs, this.journalPath, 'journal');
    return { store: storeStamp(statFile(this.fs, this.path)), journal: journal === undefined ? { id: undefined, size: 0 } : { id: journalId(journal), size: Number(journal.size) } };
  }

  /**
   * The snapshot of the files as `stamp` found them; undefined if the store file changed before it
   * was opened (another process folded meanwhile: look again).
   */
  open(stamp: Stamp): Snapshot | undefined {
    const { fs, path } = this;
    let storeFile = new DatabaseReader(memoryBytes(Buffer.from(EMPTY)), path, 0);
    // No store file: nothing to vouch for.
    let vouched = true;
    let index: { entries: Entries & { close?(): void }; bytes: number; lines: number } = { entries: SortedEntries.EMPTY, bytes: 0, lines: 0 };
    if (stamp.store !== 'absent') {
      let fd: number;
      try {
        fd = fs.openSync(path, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw storeIoError(path, 'read', error);
      }
      let info;
      try {
        info = fs.fstatSync(fd, { bigint: true });
      } catch (error) {
        fs.closeSync(fd);
        throw storeIoError(path, 'read', error);
      }
      if (storeStamp(info) !== stamp.store) {
        fs.closeSync(fd);
        return undefined;
      }
      const vouching = this.vouchingIndex(stamp);
      vouched = vouching !== undefined;
      try {
        const size = Number(info.size);
        storeFile = vouching !== undefined ? new DatabaseReader(fileBytes(fs, fd, size), path, vouching.header.plants) : readDatabaseWhole(fs, fd, path, size);
      } catch (error) {
        vouching?.entries.close();
        throw error;
      }
      if (vouching !== undefined) index = { entries: vouching.entries, bytes: vouching.header.bytes, lines: vouching.header.lines };
    } else {
      // A store of a journal alone (one never folded yet): the index holds the journal's entries.
      const vouching = this.vouchingIndex(stamp);
      if (vouching !== undefined) index = { entries: vouching.entries, bytes: vouching.header.bytes, lines: vouching.header.lines };
    }
    try {
      const store = { path, stamp: stamp.store, view: storeFile, vouched, readWhole: !vouched };
      const journal = { file: { id: stamp.journal.id, size: index.bytes }, wholeBytes: index.bytes, lines: index.lines, indexedBytes: index.bytes, indexedLines: index.lines };
      return this.readOn(new Snapshot(store, index.entries, JournalTail.empty(), journal, this.journalReader), stamp.journal);
    } catch (error) {
      closeSnapshot(storeFile, index.entries);
      throw error;
    }
  }

  /** The index, if there is one that vouches for the files as `stamp` found them. */
  private vouchingIndex(stamp: Stamp): ReturnType<typeof openIndex> {
    const found = openIndex(this.fs, this.indexPath);
    if (found !== undefined && vouches(found.header, stamp.store, stamp.journal)) return found;
    found?.entries.close();
    return undefined;
  }

  /** The snapshot with what was appended to its journal since, up to `journal`'s size. */
  readOn(snapshot: Snapshot, journal: JournalFile): Snapshot {
    const from = snapshot.journal.wholeBytes;
    if (journal.id === undefined || journal.size <= from) return snapshot;
    let fd: number;
    let id: bigint;
    try {
      fd = this.fs.openSync(this.journalPath, 'r');
      id = journalId(this.fs.fstatSync(fd, { bigint: true }));
    } catch (error) {
      throw storeIoError(this.journalPath, 'read', error);
    }
    let wholeBytes = from;
    let tail: JournalTail;
    try {
      // The journal read must be the one looked at: another file there means it changed meanwhile.
      if (id !== journal.id) throw storeIoError(this.journalPath, 'read', new Error('the journal changed while it was read'));
      tail = snapshot.tail.withRead((push) => {
        ({ wholeBytes } = readJournal(this.fs, fd, this.journalPath, from, journal.size, push));
      });
    } finally {
      this.fs.closeSync(fd);
    }
    return snapshot.appended(tail, journal, wholeBytes);
  }

  /**
   * Writes the index of `snapshot`: the store file vouched for, the journal's entries up to where
   * its whole lines end. Returns the snapshot over that index; on failure (a full disk, a file
   * system that is read-only), or for a store made read-only, the one given: the index is a cache.
   * None vouches for a store file read whole: it is in our layout only once a checkpoint wrote it.
   */
  writeIndex(snapshot: Snapshot): Snapshot {
    if (snapshot.store.readWhole) return snapshot;
    const entries = snapshot.journalEntries();
    const { journal } = snapshot;
    try {
      // A store made read-only is left as it is, with no index: its readers read it whole.
      if (isReadOnly(this.fs, this.path, this.journalPath)) return snapshot;
      writeIndex(this.fs, this.indexPath, { store: snapshot.store.stamp, plants: snapshot.store.view.plants, journal: journal.file.id === undefined ? '' : String(journal.file.id), bytes: journal.wholeBytes, lines: journal.lines }, entries);
    } catch {
      return snapshot;
    }
    (snapshot.index as Entries & { close?(): void }).close?.();
    return snapshot.indexed(entries, JournalTail.empty());
  }

  /**
   * The snapshot of the files as `stamp` finds them: `kept` where they are as it saw them, with what
   * was appended since; else read anew (`kept` is then forgotten).
   */
  current(kept: Snapshot | undefined, stamp: Stamp = this.stamp()): Snapshot {
    const journal = kept?.journal;
    if (kept !== undefined && journal !== undefined && kept.store.stamp === stamp.store && (journal.file.id === stamp.journal.id || journal.wholeBytes === 0) && stamp.journal.size >= journal.wholeBytes) {
      return stamp.journal.size !== journal.file.size || stamp.journal.id !== journal.file.id ? this.readOn(kept, stamp.journal) : kept;
    }
    this.forget(kept);
    for (let look = 1; ; look += 1) {
      const opened = this.open(stamp);
      if (opened !== undefined) return opened;
      // The store file was replaced between the look and its opening (another process folded).
      if (look === 3) throw storeIoError(this.path, 'read', new Error('the store file changed each time it was opened'));
      stamp = this.stamp();
    }
  }

  /**
   * The snapshot after a fold of `before` renamed its new store file, of `entries`' plants, into
   * place: that file, opened before the journal it holds is removed (a failure to open it leaves
   * the journal), and no journal; and its index, whatever its size: every reader after it finds the
   * file in our layout by it. `beforeRemove` may throw to keep the journal: the lease was lost.
   */
  afterFold(before: Snapshot, entries: SortedEntries, beforeRemove: () => void): Snapshot {
    this.forget(before);
    const { fs, path } = this;
    let fd: number | undefined;
    let info;
    try {
      fd = fs.openSync(path, 'r');
      info = fs.fstatSync(fd, { bigint: true });
    } catch (error) {
      if (fd !== undefined) fs.closeSync(fd);
      throw storeIoError(path, 'reopen after writing', error);
    }
    const storeFile = new DatabaseReader(fileBytes(fs, fd, Number(info.size)), path, entries.size, entries);
    try {
      beforeRemove();
      removeJournal(this.journalPath, fs);
    } catch (error) {
      storeFile.close();
      throw error;
    }
    const none = { file: { id: undefined, size: 0 }, wholeBytes: 0, lines: 0, indexedBytes: 0, indexedLines: 0 };
    const folded = new Snapshot({ path, stamp: storeStamp(info), view: storeFile, vouched: false, readWhole: false }, SortedEntries.EMPTY, JournalTail.empty(), none, this.journalReader);
    return this.writeIndex(folded);
  }

  /**
   * Writes an index of `snapshot` where its reader would read more than one would spare the next:
   * a journal tail of more than `tailPast` lines past what the index holds, or (`unvouched`) a
   * store file a checkpoint wrote whose index could not be written then. Returns the snapshot that
   * follows (writeIndex).
   */
  leaveIndex(snapshot: Snapshot, { tailPast = INDEX_WORTH, unvouched = true } = {}): Snapshot {
    const worth = snapshot.tail.lines > tailPast || (unvouched && !snapshot.store.vouched);
    return worth ? this.writeIndex(snapshot) : snapshot;
  }

  /** Closes what a snapshot no longer kept holds open: its store file and index. */
  forget(snapshot: Snapshot | undefined): void {
    if (snapshot !== undefined) closeSnapshot(snapshot.store.view, snapshot.index as Entries & { close?(): void });
    this.reader?.reader.close();
    this.reader = undefined;
  }

  /**
   * The reader of the journal file a snapshot saw. Opened when first needed, not with the snapshot:
   * a fold that removed that journal since is found here, as a journal that changed, and the read
   * is made again on the files as they are.
   */
  private readonly journalReader = (journal: JournalFile): JournalReader => {
    if (this.reader === undefined || this.reader.id !== journal.id) {
      this.reader?.reader.close();
      this.reader = undefined;
      let fd: number;
      try {
        fd = this.fs.openSync(this.journalPath, 'r');
      } catch (error) {
        throw storeIoError(this.journalPath, 'read', error);
      }
      const id = journalId(this.fs.fstatSync(fd, { bigint: true }));
      const reader = new JournalReader(this.fs, fd, this.journalPath);
      if (id !== journal.id) {
        reader.close();
        throw storeIoError(this.journalPath, 'read', new Error('the journal changed while it was read'));
      }
      this.reader = { id, reader };
    }
    return this.reader.reader;
  };
}

export function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.store === b.store && a.journal.id === b.journal.id && a.journal.size === b.journal.size;
}

function closeSnapshot(storeFile: DatabaseReader, index: Entries & { close?(): void }): void {
  storeFile.close();
  index.close?.();
}

/**
 * The file a store path names, symlinks followed: the store file is replaced where the link
 * points, never the link itself, so the lock and the journal must be that file's too, or a process
 * writing through the link and one writing to the file would each hold a lock of its own. A
 * dangling link names its target, which the first write creates (with its directory). A store not
 * created yet is named as given.
 */
export function realStorePath(fs: FileSystem, path: string): string {
  let current = resolve(path);
  // A loop of links stops here; the first read or write then reports ELOOP.
  for (let hops = 0; hops < 40; hops += 1) {
    try {
      return fs.realpathSync(current);
    } catch {
      // Absent, or a link to something absent: follow the link by hand, where realpath gives up.
    }
    try {
      current = resolve(dirname(current), fs.readlinkSync(current));
    } catch {
      // Not a link (absent, or unreadable: the first read or write says why).
      return current;
    }
  }
  return current;
}
