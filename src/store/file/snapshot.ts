import { canonicalPlant } from '../../core/plant-json.js';
import type { NewPlant } from '../../core/schemas.js';
import type { ListQuery } from '../../core/store.js';
import { DELETED, type WalFile, type WalReader } from './wal.js';
import type { WalTail } from './wal-tail.js';
import { find, mergeEntries, type Entries, type SortedEntries } from './sorted-entries.js';
import { storeCorruptError } from '../store-errors.js';
import type { DatabaseWriter } from './database-file.js';
import { heldAs, type DatabaseReader, type StoreLine } from './database-reader.js';

/** The WAL as a snapshot saw it. */
export interface WalSeen {
  /** Its inode (undefined: none yet) and size, a torn tail included. */
  file: WalFile;
  /** Where its whole lines end, and how many there are. */
  wholeBytes: number;
  lines: number;
  /** How many of its first bytes and lines the wal-index holds; the tail holds the rest. */
  indexedBytes: number;
  indexedLines: number;
}

/** The database file as a snapshot saw it. */
export interface DatabaseSeen {
  /** Its path, to name it when what it reads is corrupt. */
  path: string;
  /** What identifies its content (wal-index.ts). */
  stamp: string;
  reader: DatabaseReader;
  /** Whether a wal-index on disk vouches for it as it is (or there is none to vouch for). */
  vouched: boolean;
  /**
   * Whether it was read whole, no wal-index vouching for it (normalise.ts): held in memory in our
   * layout, it is written so, with its wal-index, by the next checkpoint; no index vouches for it before.
   */
  readWhole: boolean;
}

/**
 * The store at one moment, never changed once made: the database file, what the WAL's indexed
 * lines say of each id (the wal-index), and the WAL lines after them (the tail, wal-tail.ts); of
 * the three, the newest say on an id wins. Every read of the store is a read of one snapshot, and
 * every write makes the next one (`appended`).
 */
export class Snapshot {
  constructor(
    readonly database: DatabaseSeen,
    readonly index: Entries,
    readonly tail: WalTail,
    readonly wal: WalSeen,
    /** The reader of the lines of a WAL file (wal.ts), opened as needed. */
    private readonly walReader: (wal: WalFile) => WalReader,
  ) {}

  has(id: bigint): boolean {
    const value = this.walSay(id);
    return value === undefined ? this.database.reader.has(id) : value !== DELETED;
  }

  get(id: bigint): NewPlant | undefined {
    const line = this.lineOf(id);
    if (line === undefined) return undefined;
    const plant = this.plantOf(line);
    // Where a file changed under its wal-index in a way no stamp shows: never another plant's line.
    if (plant.id !== id) throw this.notItsLine(id, line);
    return plant;
  }

  /** The canonical line of the plant of `id`, if there is one. */
  private lineOf(id: bigint): string | undefined {
    const value = this.walSay(id);
    return value === undefined ? this.database.reader.lineOf(id) : value === DELETED ? undefined : this.walLine(value);
  }

  private notItsLine(id: bigint, line: string): Error {
    const found = canonicalPlant(line);
    const what = found === undefined ? `not a plant: ${line.slice(0, 60)}` : `the plant ${found.id}`;
    const { path } = this.database;
    return storeCorruptError(
      path,
      `the line found for id ${id} is ${what}: its index does not match its files (remove ${path}.index)`,
    );
  }

  /**
   * Whether the plant of `id` is stored as `line`, its canonical line ('same'), as another line
   * ('other'), or not at all: compared as text, which is exact, since a plant has one canonical
   * line and every stored line is canonical (checked as it was read, or re-encoded).
   */
  holds(id: bigint, line: string): 'absent' | 'same' | 'other' {
    const value = this.walSay(id);
    // The database file's plant is compared where it is; the WAL's, as text.
    const walLine = value === undefined || value === DELETED ? undefined : this.walLine(value);
    const held = value === undefined ? this.database.reader.holds(id, line) : heldAs(walLine, line);
    // As get checks: never another plant's line.
    if (held === 'foreign') throw this.notItsLine(id, this.lineOf(id) as string);
    return held;
  }

  /**
   * A page of plants in id order, those `keeps` (its filter: a tag, a name search): paging by
   * `after` is stable, since each page is of one snapshot. A scan from `after`, in id order, over
   * the database file and the WAL, a plant at a time: it stops at `limit` plants kept, and holds
   * only them.
   */
  page({ after, limit }: Pick<ListQuery, 'after' | 'limit'>, keeps: (plant: NewPlant) => boolean): NewPlant[] {
    const page: NewPlant[] = [];
    if (limit <= 0) return page;
    this.merged(after, (_, fileLine, value) => {
      if (value === DELETED) return true;
      const plant = this.plantOf(value === undefined ? (fileLine as string) : this.walLine(value));
      if (keeps(plant)) page.push(plant);
      return page.length < limit;
    });
    return page;
  }

  /** How many plants `keeps` (undefined: every plant, each counted without being read): a scan of the whole store. */
  count(keeps: ((plant: NewPlant) => boolean) | undefined): number {
    let count = 0;
    this.merged(undefined, (_, fileLine, value) => {
      if (value === DELETED) return true;
      if (keeps === undefined) count += 1;
      else if (keeps(this.plantOf(value === undefined ? (fileLine as string) : this.walLine(value)))) count += 1;
      return true;
    });
    return count;
  }

  /**
   * Every plant into `writer`, in id order, for a checkpoint: the WAL's lines copied as the bytes
   * they are (checked canonical as they were read), the rest as text.
   */
  writeTo(writer: DatabaseWriter): void {
    let reader: WalReader | undefined;
    this.merged(undefined, (id, fileLine, value) => {
      if (value === undefined) writer.text(id, fileLine as string);
      else if (value >= 0) {
        const { block, from, to } = (reader ??= this.walReader(this.wal.file)).lineBytes(value);
        writer.begin(id);
        writer.copy(block, from, to);
      } else if (value !== DELETED) writer.text(id, this.walLine(value));
      return true;
    });
  }

  /**
   * The snapshot after lines were appended to the WAL `file` (durable now), `tail` this one's tail
   * with their entries.
   */
  appended(tail: WalTail, file: WalFile, wholeBytes: number): Snapshot {
    const wal = { ...this.wal, file, wholeBytes, lines: this.wal.lines + tail.lines - this.tail.lines };
    return new Snapshot(this.database, this.index, tail, wal, this.walReader);
  }

  /** The same store, its WAL's entries all in the wal-index just written, `index`. */
  indexed(index: SortedEntries, tail: WalTail): Snapshot {
    const wal = { ...this.wal, indexedBytes: this.wal.wholeBytes, indexedLines: this.wal.lines };
    return new Snapshot({ ...this.database, vouched: true }, index, tail, wal, this.walReader);
  }

  /** What the WAL says of every id it names, the tail over the wal-index, in id order: the next wal-index. */
  walEntries(): SortedEntries {
    return mergeEntries(this.index, this.tail.sorted());
  }

  /**
   * Every id from the first above `after`, in id order, that the database file or the WAL names,
   * until `visit` returns false: with what the WAL says last of it (an entry's value: wal.ts),
   * else (undefined) with the database file's line.
   */
  private merged(
    after: bigint | undefined,
    visit: (id: bigint, fileLine: string | undefined, value: number | undefined) => boolean,
  ): void {
    const file = this.database.reader.linesAfter(after)[Symbol.iterator]();
    const { index } = this;
    const tail = this.tail.sorted();
    const indexSize = index.size;
    const tailSize = tail.size;
    let fileNext = file.next();
    let i = after === undefined ? 0 : index.after(after);
    let t = after === undefined ? 0 : tail.after(after);
    try {
      for (;;) {
        const fileId = fileNext.done === true ? undefined : fileNext.value.id;
        const indexId = i < indexSize ? index.idAt(i) : undefined;
        const tailId = t < tailSize ? tail.idAt(t) : undefined;
        const id = least(least(fileId, indexId), tailId);
        if (id === undefined) return;
        const value = tailId === id ? tail.valueAt(t) : indexId === id ? index.valueAt(i) : undefined;
        const fileLine = value === undefined ? (fileNext.value as StoreLine).line : undefined;
        if (fileId === id) fileNext = file.next();
        if (indexId === id) i += 1;
        if (tailId === id) t += 1;
        if (!visit(id, fileLine, value)) return;
      }
    } finally {
      file.return?.();
    }
  }

  /** What the WAL says last of `id` (an entry's value: wal.ts), if anything. */
  private walSay(id: bigint): number | undefined {
    const fromTail = this.tail.get(id);
    if (fromTail !== undefined || this.index.size === 0) return fromTail;
    const position = find(this.index, id);
    return position === -1 ? undefined : this.index.valueAt(position);
  }

  /** The canonical line of the WAL plant of an entry's value. */
  private walLine(value: number): string {
    return this.walReader(this.wal.file).lineAt(value);
  }

  /** A line this store wrote or checked: canonical, so read by the fast path. */
  private plantOf(line: string): NewPlant {
    const plant = canonicalPlant(line);
    if (plant !== undefined) return plant;
    throw storeCorruptError(this.database.path, `a stored line is not a plant: ${line.slice(0, 60)}`);
  }
}

function least(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  return a === undefined ? b : b === undefined || a <= b ? a : b;
}
