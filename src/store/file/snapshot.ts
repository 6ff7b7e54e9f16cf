import { canonicalPlant } from '../../core/plant-json.js';
import type { NewPlant } from '../../core/schemas.js';
import type { ListQuery } from '../../core/store.js';
import { DELETED, type JournalFile, type JournalReader } from './wal.js';
import type { JournalTail } from './wal-tail.js';
import { EntriesBuilder, find, type Entries, type SortedEntries } from './sorted-entries.js';
import { storeCorruptError } from '../store-errors.js';
import type { StoreFileWriter } from './database-file.js';
import { heldAs, type DatabaseReader, type StoreLine } from './database-reader.js';

/** The journal as a snapshot saw it. */
export interface JournalSeen {
  /** Its inode (undefined: none yet) and size, a torn tail included. */
  file: JournalFile;
  /** Where its whole lines end, and how many there are. */
  wholeBytes: number;
  lines: number;
  /** How many of its first bytes and lines the index holds; the tail holds the rest. */
  indexedBytes: number;
  indexedLines: number;
}

/** The store file as a snapshot saw it. */
export interface StoreSeen {
  /** Its path, to name it when what it reads is corrupt. */
  path: string;
  /** What identifies its content (store-index.ts). */
  stamp: string;
  view: DatabaseReader;
  /** Whether an index on disk vouches for it as it is (or there is none to vouch for). */
  vouched: boolean;
  /**
   * Whether it was read whole, no index vouching for it (normalise.ts): in memory in our layout, it
   * is written so, with its index, by the next checkpoint, and until then no index vouches for it.
   */
  readWhole: boolean;
}

/**
 * The store at one moment, never changed once made: the store file, what the journal's indexed
 * lines say of each id (store-index.ts), and the journal lines after them (the tail); of the
 * three, the newest say on an id wins. Every read of the store is a read of one snapshot, and
 * every write makes the next one (`appended`).
 */
export class Snapshot {
  constructor(
    readonly store: StoreSeen,
    readonly index: Entries,
    readonly tail: JournalTail,
    readonly journal: JournalSeen,
    /** The reader of the lines of a journal file (journal.ts), opened as needed. */
    private readonly journalReader: (journal: JournalFile) => JournalReader,
  ) {}

  has(id: bigint): boolean {
    const value = this.journalSay(id);
    return value === undefined ? this.store.view.has(id) : value !== DELETED;
  }

  get(id: bigint): NewPlant | undefined {
    const line = this.lineOf(id);
    if (line === undefined) return undefined;
    const plant = this.plantOf(line);
    // Where a file changed under its index in a way no stamp shows: never another plant's line.
    if (plant.id !== id) throw this.notItsLine(id, line);
    return plant;
  }

  /** The canonical line of the plant of `id`, if there is one. */
  private lineOf(id: bigint): string | undefined {
    const value = this.journalSay(id);
    return value === undefined ? this.store.view.lineOf(id) : value === DELETED ? undefined : this.journalLine(value);
  }

  private notItsLine(id: bigint, line: string): Error {
    const found = canonicalPlant(line);
    const what = found === undefined ? `not a plant: ${line.slice(0, 60)}` : `the plant ${found.id}`;
    return storeCorruptError(this.store.path, `the line found for id ${id} is ${what}: its index does not match its files (remove ${this.store.path}.index)`);
  }

  /**
   * Whether the plant of `id` is stored as `line`, its canonical line ('same'), as another line
   * ('other'), or not at all: compared as text, which is exact, since a plant has one canonical
   * line and every stored line is canonical (checked as it was read, or re-encoded).
   */
  holds(id: bigint, line: string): 'absent' | 'same' | 'other' {
    const value = this.journalSay(id);
    // The store file's plant is compared where it is; the journal's, as text.
    const held = value === undefined ? this.store.view.holds(id, line) : heldAs(value === DELETED ? undefined : this.journalLine(value), line);
    // As get checks: never another plant's line.
    if (held === 'foreign') throw this.notItsLine(id, this.lineOf(id) as string);
    return held;
  }

  /** A page of plants in id order: paging by `after` is stable, since each page is of one snapshot. */
  page({ after, limit, tag }: ListQuery): NewPlant[] {
    const page: NewPlant[] = [];
    if (limit <= 0) return page;
    this.merged(after, (_, fileLine, value) => {
      if (value === DELETED) return true;
      const plant = this.plantOf(value === undefined ? (fileLine as string) : this.journalLine(value));
      if (tag === undefined || plant.tag === tag) page.push(plant);
      return page.length < limit;
    });
    return page;
  }

  /**
   * Every plant into `writer`, in id order, for a fold: the journal's lines copied as the bytes
   * they are (checked canonical as they were read), the rest as text.
   */
  writeTo(writer: StoreFileWriter): void {
    let reader: JournalReader | undefined;
    this.merged(undefined, (id, fileLine, value) => {
      if (value === undefined) writer.text(id, fileLine as string);
      else if (value >= 0) {
        const { block, from, to } = (reader ??= this.journalReader(this.journal.file)).lineBytes(value);
        writer.begin(id);
        writer.copy(block, from, to);
      } else if (value !== DELETED) writer.text(id, this.journalLine(value));
      return true;
    });
  }

  /** The snapshot after lines were appended to the journal `file` (durable now), `tail` this one's tail with their entries. */
  appended(tail: JournalTail, file: JournalFile, wholeBytes: number): Snapshot {
    const journal = { ...this.journal, file, wholeBytes, lines: this.journal.lines + tail.lines - this.tail.lines };
    return new Snapshot(this.store, this.index, tail, journal, this.journalReader);
  }

  /** The same store, its journal's entries all in the index just written, `index`. */
  indexed(index: SortedEntries, tail: JournalTail): Snapshot {
    const journal = { ...this.journal, indexedBytes: this.journal.wholeBytes, indexedLines: this.journal.lines };
    return new Snapshot({ ...this.store, vouched: true }, index, tail, journal, this.journalReader);
  }

  /** What the journal says of every id it names, the tail over the index, in id order: the next index. */
  journalEntries(): SortedEntries {
    const tail = this.tail.sorted();
    const { index } = this;
    if (index.size === 0) return tail;
    const merged = new EntriesBuilder();
    let i = 0;
    let t = 0;
    while (i < index.size || t < tail.size) {
      const fromTail = t < tail.size && (i >= index.size || tail.idAt(t) <= index.idAt(i));
      if (fromTail && i < index.size && tail.idAt(t) === index.idAt(i)) i += 1;
      if (fromTail) {
        merged.push(tail.idAt(t), tail.valueAt(t));
        t += 1;
      } else {
        merged.push(index.idAt(i), index.valueAt(i));
        i += 1;
      }
    }
    return merged.build();
  }

  /**
   * Every id from the first above `after`, in id order, that the store file or the journal names,
   * until `visit` returns false: with what the journal says last of it (an entry's value:
   * journal.ts), else (undefined) with the store file's line.
   */
  private merged(after: bigint | undefined, visit: (id: bigint, fileLine: string | undefined, value: number | undefined) => boolean): void {
    const file = this.store.view.linesAfter(after)[Symbol.iterator]();
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

  /** What the journal says last of `id` (an entry's value: journal.ts), if anything. */
  private journalSay(id: bigint): number | undefined {
    const fromTail = this.tail.get(id);
    if (fromTail !== undefined || this.index.size === 0) return fromTail;
    const position = find(this.index, id);
    return position === -1 ? undefined : this.index.valueAt(position);
  }

  /** The canonical line of the journal plant of an entry's value. */
  private journalLine(value: number): string {
    return this.journalReader(this.journal.file).lineAt(value);
  }

  /** A line this store wrote or checked: canonical, so read by the fast path. */
  private plantOf(line: string): NewPlant {
    const plant = canonicalPlant(line);
    if (plant === undefined) throw storeCorruptError(this.store.path, `a stored line is not a plant: ${line.slice(0, 60)}`);
    return plant;
  }
}

function least(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  return a === undefined ? b : b === undefined || a <= b ? a : b;
}
