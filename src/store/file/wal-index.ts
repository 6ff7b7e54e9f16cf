import { endianness } from 'node:os';
import { replaceFileSync } from '../../fs/durable-file.js';
import type { FileSystem, BigIntStats } from '../../fs/file-system.js';
import { storeIoError } from '../store-errors.js';
import { SortedEntries, type Entries } from './sorted-entries.js';

/**
 * The wal-index, on disk `<store>.index` (store-paths.ts): what a reader needs to find a plant in
 * a store without reading it whole. A cache: nothing depends on it for correctness. One missing,
 * stale or unreadable costs the next command a read of the database file, a block at a time, to
 * check its layout (and where it is not ours, a checkpoint: normalise.ts), or a read of the WAL
 * line by line. It vouches for two things, each checked against the files as they are:
 *
 * - the database file, by its inode, size, mtime and ctime (no write to it leaves all four as they
 *   were): it is in our layout (a checkpoint wrote it, or a reader checked it), and it holds
 *   `plants` plants. A reader then finds
 *   a plant by halving it (database-reader.ts).
 * - the WAL's first `bytes` bytes, by its identity (wal.ts: walId): what those lines say of each
 *   id, in id order (entries: where each id's last line starts, or DELETED). The WAL only grows,
 *   and its whole lines never change while it lives: a reader reads the lines after `bytes` as usual.
 *
 * Layout: the line `plants-index 1`, a JSON header line, then the entries, at a multiple of 8
 * bytes: their ids (int64), then their values (float64), little-endian. Written whole and fsynced
 * beside the old, then renamed over it: a crash leaves the old index or the new one, never part of one.
 * Its field names are the files' names on disk, which every release reads.
 */
export interface WalIndexHeader {
  /** The database file's stamp (databaseStamp). */
  store: string;
  plants: number;
  /** The WAL's identity (walId), or "" where no WAL bytes are indexed. */
  journal: string;
  bytes: number;
  /** WAL lines in its first `bytes` bytes. */
  lines: number;
  entries: number;
}

const MAGIC = 'plants-index 1\n';
/** Where the header line may end at most: an index whose header is longer is no index of ours. */
const HEADER_MAX = 1024;

/** What identifies a database file's content: it is replaced, never changed in place by plants. */
export function databaseStamp(info: BigIntStats | undefined): string {
  return info === undefined ? 'absent' : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * Whether a wal-index of this header vouches for the files as they are: the database file of
 * `database`'s stamp, and a WAL of which it holds no bytes, or the first bytes of this one (it only
 * grows).
 */
export function vouches(
  header: WalIndexHeader,
  database: string,
  wal: { id: bigint | undefined; size: number },
): boolean {
  const ofThisWal = header.journal === String(wal.id) && header.bytes <= wal.size;
  return header.store === database && (header.bytes === 0 || ofThisWal);
}

/**
 * The wal-index at `path`, if there is one in our layout (on a big-endian machine, none is used: its
 * numbers are little-endian). The entries are read from the file as they are asked for.
 */
export function openWalIndex(
  fs: FileSystem,
  path: string,
): { header: WalIndexHeader; entries: FileEntries } | undefined {
  if (endianness() !== 'LE') return undefined;
  let fd: number;
  try {
    fd = fs.openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.allocUnsafe(HEADER_MAX);
    const got = fs.readSync(fd, head, 0, HEADER_MAX, 0);
    const end = head.indexOf(10, MAGIC.length);
    if (head.toString('latin1', 0, MAGIC.length) !== MAGIC || end === -1 || end >= got) throw new Error('not an index');
    const header = JSON.parse(head.toString('utf8', MAGIC.length, end)) as WalIndexHeader;
    const data = Math.ceil((end + 1) / 8) * 8;
    if (fs.fstatSync(fd).size !== data + header.entries * 16) throw new Error('not a whole index');
    return { header, entries: new FileEntries(fs, fd, path, data, header.entries) };
  } catch {
    fs.closeSync(fd);
    return undefined;
  }
}

/** Writes the wal-index: the header, and the entries of `entries`. Throws what the file system throws. */
export function writeWalIndex(
  fs: FileSystem,
  path: string,
  header: Omit<WalIndexHeader, 'entries'>,
  entries: SortedEntries,
): void {
  // Its numbers are written as this machine holds them, and read as little-endian.
  if (endianness() !== 'LE') throw new Error('no index is written on a big-endian machine');
  const head = Buffer.from(`${MAGIC}${JSON.stringify({ ...header, entries: entries.size })}\n`);
  const padding = Buffer.alloc(Math.ceil(head.length / 8) * 8 - head.length);
  const bytes = (array: BigInt64Array | Float64Array) =>
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  replaceFileSync(
    path,
    (write) => {
      write(head);
      write(padding);
      write(bytes(entries.ids));
      write(bytes(entries.values));
    },
    // No index at all, or an older one, serves as well as this one: its rename need not be synced.
    { fs, durableRename: false },
  );
}

/** Ids are read in blocks of this many: a search reads a few blocks, a page one or two. */
const BLOCK = 128;

/**
 * A wal-index's entries in its file, read a block at a time as a search or a page needs them; all of
 * them read at once, and kept, once a process has searched them more than a thousandth of their
 * number of times (an import's batch, a server): a search a block at a time would read the index
 * many times over.
 */
export class FileEntries implements Entries {
  private ids = { at: -1, block: new BigInt64Array(0) };
  private values = { at: -1, block: new Float64Array(0) };
  private searches = 0;
  private loaded: SortedEntries | undefined;

  constructor(
    private readonly fs: FileSystem,
    private readonly fd: number,
    private readonly path: string,
    private readonly offset: number,
    readonly size: number,
  ) {}

  idAt(position: number): bigint {
    if (this.loaded !== undefined) return this.loaded.idAt(position);
    const at = position - (position % BLOCK);
    if (this.ids.at !== at)
      this.ids = { at, block: this.column(new BigInt64Array(Math.min(BLOCK, this.size - at)), this.offset + at * 8) };
    return this.ids.block[position - at] as bigint;
  }

  valueAt(position: number): number {
    if (this.loaded !== undefined) return this.loaded.valueAt(position);
    const at = position - (position % BLOCK);
    if (this.values.at !== at)
      this.values = {
        at,
        block: this.column(new Float64Array(Math.min(BLOCK, this.size - at)), this.offset + (this.size + at) * 8),
      };
    return this.values.block[position - at] as number;
  }

  after(id: bigint): number {
    this.searches += 1;
    if (this.loaded === undefined && this.searches * 1000 > this.size) this.loaded = this.load();
    if (this.loaded !== undefined) return this.loaded.after(id);
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.idAt(middle) <= id) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** All of them, in memory: for a process that asks for many (a server, an import, a checkpoint). */
  load(): SortedEntries {
    const ids = new BigInt64Array(this.size);
    const values = new Float64Array(this.size);
    this.read(new Uint8Array(ids.buffer), this.offset);
    this.read(new Uint8Array(values.buffer), this.offset + this.size * 8);
    return new SortedEntries(ids, values);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.fs.closeSync(this.fd);
  }

  private closed = false;

  private column<T extends BigInt64Array | Float64Array>(into: T, position: number): T {
    this.read(new Uint8Array(into.buffer), position);
    return into;
  }

  private read(into: Uint8Array, position: number): void {
    try {
      for (let got = 0; got < into.length;) {
        const read = this.fs.readSync(this.fd, into, got, into.length - got, position + got);
        if (read === 0) throw new Error('the index ended before its last entry');
        got += read;
      }
    } catch (error) {
      throw storeIoError(this.path, 'read', error);
    }
  }
}
