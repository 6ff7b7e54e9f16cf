import type { FileSystem } from '../../fs/file-system.js';
import { statFile, storeIoError } from '../store-errors.js';
import { EMPTY } from './database-file.js';
import { DatabaseReader, fileBytes, memoryBytes } from './database-reader.js';
import { readUnvouched } from './normalise.js';
import { isReadOnly } from './read-only.js';
import { Snapshot, type DatabaseSeen } from './snapshot.js';
import { SortedEntries, type Entries } from './sorted-entries.js';
import { walIndexPathOf, walPathOf } from './store-paths.js';
import { readWal, walId, WalOpener, type WalFile, type WalReader } from './wal.js';
import { databaseStamp, openWalIndex, vouches, writeWalIndex } from './wal-index.js';
import { WalTail } from './wal-tail.js';

/** WAL lines a reader reads as they are, past what the wal-index holds: past this many, a wal-index is written. */
export const INDEX_WORTH = 1_000;

/** The store's files as a look at them finds them: the database file's stamp (wal-index.ts), and the WAL. */
export interface Stamp {
  database: string;
  wal: WalFile;
}

type Closable = Entries & { close?(): void };

/**
 * The files of one store on disk (store-paths.ts), and how a snapshot is read from them: the
 * database file where needed if its wal-index vouches for it or it is checked to be in our layout,
 * else read whole (normalise.ts); the WAL from where the wal-index stops. Every call goes through `fs`.
 */
export class StoreFiles {
  readonly walPath: string;
  readonly walIndexPath: string;
  /** The reader of the WAL file a snapshot saw (Snapshot's walReader). */
  private readonly wal: WalOpener;

  constructor(
    readonly fs: FileSystem,
    readonly path: string,
  ) {
    this.walPath = walPathOf(path);
    this.walIndexPath = walIndexPathOf(path);
    this.wal = new WalOpener(fs, this.walPath);
  }

  readonly walReader = (wal: WalFile): WalReader => this.wal.reader(wal);

  stamp(): Stamp {
    const wal = statFile(this.fs, this.walPath, 'journal');
    const database = databaseStamp(statFile(this.fs, this.path));
    return {
      database,
      wal: wal === undefined ? { id: undefined, size: 0 } : { id: walId(wal), size: Number(wal.size) },
    };
  }

  /**
   * The snapshot of the files as `stamp` found them; undefined if the database file was replaced
   * before it was opened (another process checkpointed meanwhile: look again).
   */
  open(stamp: Stamp): Snapshot | undefined {
    const { fs, path } = this;
    const opened = stamp.database === 'absent' ? undefined : this.openDatabase(stamp.database);
    if (stamp.database !== 'absent' && opened === undefined) return undefined;
    const found = openWalIndex(fs, this.walIndexPath);
    const vouching = found !== undefined && vouches(found.header, stamp.database, stamp.wal) ? found : undefined;
    if (vouching === undefined) found?.entries.close();
    // No database file (a store of a WAL alone, never checkpointed): nothing to vouch for.
    const none = new DatabaseReader(memoryBytes([Buffer.from(EMPTY)]), path, 0);
    let database: DatabaseSeen = { path, stamp: stamp.database, reader: none, vouched: true, readWhole: false };
    try {
      if (opened !== undefined) {
        const { fd, size } = opened;
        const { reader, readWhole } =
          vouching !== undefined
            ? { reader: new DatabaseReader(fileBytes(fs, fd, size), path, vouching.header.plants), readWhole: false }
            : readUnvouched(fs, fd, path, size);
        database = { ...database, reader, vouched: vouching !== undefined, readWhole };
      }
      const { bytes, lines } = vouching?.header ?? { bytes: 0, lines: 0 };
      const wal = {
        file: { id: stamp.wal.id, size: bytes },
        wholeBytes: bytes,
        lines,
        indexedBytes: bytes,
        indexedLines: lines,
      };
      const index = vouching?.entries ?? SortedEntries.EMPTY;
      const snapshot = this.readOn(new Snapshot(database, index, WalTail.empty(), wal, this.walReader), stamp.wal);
      // A database file found in our layout with no wal-index (a store copied): given one at once,
      // so that the commands after this one need not check it again.
      return database.vouched || database.readWhole ? snapshot : this.writeIndex(snapshot);
    } catch (error) {
      // A database file read whole closed its descriptor; a reader of one owns it.
      database.reader.close();
      vouching?.entries.close();
      throw error;
    }
  }

  /** The database file, open, if it is still the one of `stamp`: its descriptor and size. */
  private openDatabase(stamp: string): { fd: number; size: number } | undefined {
    const { fs, path } = this;
    let fd: number;
    try {
      fd = fs.openSync(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw storeIoError(path, 'read', error);
    }
    try {
      const info = fs.fstatSync(fd, { bigint: true });
      if (databaseStamp(info) === stamp) return { fd, size: Number(info.size) };
    } catch (error) {
      fs.closeSync(fd);
      throw storeIoError(path, 'read', error);
    }
    fs.closeSync(fd);
    return undefined;
  }

  /** The snapshot with what was appended to its WAL since, up to `wal`'s size. */
  readOn(snapshot: Snapshot, wal: WalFile): Snapshot {
    const from = snapshot.wal.wholeBytes;
    if (wal.id === undefined || wal.size <= from) return snapshot;
    let fd: number;
    let id: bigint;
    try {
      fd = this.fs.openSync(this.walPath, 'r');
      id = walId(this.fs.fstatSync(fd, { bigint: true }));
    } catch (error) {
      throw storeIoError(this.walPath, 'read', error);
    }
    let wholeBytes = from;
    let tail: WalTail;
    try {
      // The WAL read must be the one looked at: another file there means it changed meanwhile.
      if (id !== wal.id) throw storeIoError(this.walPath, 'read', new Error('the journal changed while it was read'));
      tail = snapshot.tail.withRead((push) => {
        ({ wholeBytes } = readWal(this.fs, fd, this.walPath, from, wal.size, push));
      });
    } finally {
      this.fs.closeSync(fd);
    }
    return snapshot.appended(tail, wal, wholeBytes);
  }

  /**
   * The snapshot of the files as `stamp` finds them: `kept` where they are as it saw them, with what
   * was appended since; else read anew (`kept` is then forgotten).
   */
  current(kept: Snapshot | undefined, stamp: Stamp = this.stamp()): Snapshot {
    const wal = kept?.wal;
    const same =
      wal !== undefined && (wal.file.id === stamp.wal.id || wal.wholeBytes === 0) && stamp.wal.size >= wal.wholeBytes;
    if (kept !== undefined && wal !== undefined && same && kept.database.stamp === stamp.database) {
      return stamp.wal.size !== wal.file.size || stamp.wal.id !== wal.file.id ? this.readOn(kept, stamp.wal) : kept;
    }
    this.forget(kept);
    for (let look = 1; ; look += 1) {
      const opened = this.open(stamp);
      if (opened !== undefined) return opened;
      // The database file was replaced between the look and its opening (another process checkpointed).
      const why = new Error('the store file changed each time it was opened');
      if (look === 3) throw storeIoError(this.path, 'read', why);
      stamp = this.stamp();
    }
  }

  /**
   * Writes an index of `snapshot` where its reader would read more than one would spare the next:
   * a WAL tail of more than `tailPast` lines past what the wal-index holds, or (`unvouched`) a
   * database file in our layout whose wal-index could not be written when a checkpoint wrote it or
   * a read found it. Returns the snapshot that follows (writeIndex).
   */
  leaveIndex(snapshot: Snapshot, { tailPast = INDEX_WORTH, unvouched = true } = {}): Snapshot {
    const worth = snapshot.tail.lines > tailPast || (unvouched && !snapshot.database.vouched);
    return worth ? this.writeIndex(snapshot) : snapshot;
  }

  /**
   * Writes the wal-index of `snapshot`: the database file vouched for, the WAL's entries up to
   * where its whole lines end. Returns the snapshot over that index; on failure (a full disk, a
   * file system that is read-only), or for a store made read-only, the one given: the index is a
   * cache. None vouches for a database file read whole: it is in our layout once a checkpoint
   * wrote it, not before.
   */
  writeIndex(snapshot: Snapshot): Snapshot {
    if (snapshot.database.readWhole) return snapshot;
    const entries = snapshot.walEntries();
    const { wal, database } = snapshot;
    try {
      // A store made read-only is left as it is, with no index: its readers read it whole.
      if (isReadOnly(this.fs, this.path, this.walPath)) return snapshot;
      const journal = wal.file.id === undefined ? '' : String(wal.file.id);
      const header = {
        store: database.stamp,
        plants: database.reader.plants,
        journal,
        bytes: wal.wholeBytes,
        lines: wal.lines,
      };
      writeWalIndex(this.fs, this.walIndexPath, header, entries);
    } catch {
      return snapshot;
    }
    (snapshot.index as Closable).close?.();
    return snapshot.indexed(entries, WalTail.empty());
  }

  /** Closes what a snapshot no longer kept holds open: its database file and wal-index. */
  forget(snapshot: Snapshot | undefined): void {
    if (snapshot !== undefined) closeSnapshot(snapshot.database.reader, snapshot.index as Closable);
    this.wal.close();
  }
}

export function sameStamp(a: Stamp, b: Stamp): boolean {
  return a.database === b.database && a.wal.id === b.wal.id && a.wal.size === b.wal.size;
}

function closeSnapshot(database: DatabaseReader, index: Closable): void {
  database.close();
  index.close?.();
}
