import { canonicalPlant } from '../core/plant-json.js';
import type { NewPlant } from '../core/schemas.js';
import type { ListQuery } from '../core/store.js';
import { DELETED, type JournalFile } from './journal.js';
import type { JournalTail } from './journal-tail.js';
import { EntriesBuilder, find, type Entries, type SortedEntries } from './sorted-entries.js';
import { storeCorruptError } from './store-errors.js';
import { heldAs, type StoreFileView, type StoreLine } from './store-file-view.js';

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
  view: StoreFileView;
  /** Whether an index on disk vouches for it as it is: else a reader of it writes one, where it is worth it. */
  vouched: boolean;
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
    /** The canonical line of the journal plant of an entry's value (journal.ts). */
    private readonly journalLine: (value: number, journal: JournalFile) => string,
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
    return value === undefined ? this.store.view.lineOf(id) : value === DELETED ? undefined : this.journalLine(value, this.journal.file);
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
    const held = value === undefined ? this.store.view.holds(id, line) : heldAs(value === DELETED ? undefined : this.journalLine(value, this.journal.file), line);
    // As get checks: never another plant's line.
    if (held === 'foreign') throw this.notItsLine(id, this.lineOf(id) as string);
    return held;
  }

  /** A page of plants in id order: paging by `after` is stable, since each page is of one snapshot. */
  page({ after, limit, tag }: ListQuery): NewPlant[] {
    const page: NewPlant[] = [];
    if (limit <= 0) return page;
    for (const { line } of this.lines(after)) {
      const plant = this.plantOf(line);
      if (tag !== undefined && plant.tag !== tag) continue;
      page.push(plant);
      if (page.length >= limit) break;
    }
    return page;
  }

  /** The snapshot after lines were appended to the journal `file` (durable now), `tail` this one's tail with their entries. */
  appended(tail: JournalTail, file: JournalFile, wholeBytes: number): Snapshot {
    const journal = { ...this.journal, file, wholeBytes, lines: this.journal.lines + tail.lines - this.tail.lines };
    return new Snapshot(this.store, this.index, tail, journal, this.journalLine);
  }

  /** The same store, its journal's entries all in the index just written, `index`. */
  indexed(index: SortedEntries, tail: JournalTail): Snapshot {
    const journal = { ...this.journal, indexedBytes: this.journal.wholeBytes, indexedLines: this.journal.lines };
    return new Snapshot({ ...this.store, vouched: true }, index, tail, journal, this.journalLine);
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
   * Every plant from the first whose id is above `after`, in id order, as canonical lines: the
   * store file's and the journal's together, where both name an id the journal's (or its deletion).
   */
  *lines(after?: bigint): Generator<StoreLine> {
    const file = this.store.view.linesAfter(after)[Symbol.iterator]();
    const { index } = this;
    const tail = this.tail.sorted();
    let fileNext = file.next();
    let i = after === undefined ? 0 : index.after(after);
    let t = after === undefined ? 0 : tail.after(after);
    try {
      for (;;) {
        const fileId = fileNext.done === true ? undefined : fileNext.value.id;
        const indexId = i < index.size ? index.idAt(i) : undefined;
        const tailId = t < tail.size ? tail.idAt(t) : undefined;
        const id = least(least(fileId, indexId), tailId);
        if (id === undefined) return;
        let line: string | undefined;
        const value = tailId === id ? tail.valueAt(t) : indexId === id ? index.valueAt(i) : undefined;
        if (value === undefined) line = (fileNext.value as StoreLine).line;
        else if (value !== DELETED) line = this.journalLine(value, this.journal.file);
        if (fileId === id) fileNext = file.next();
        if (indexId === id) i += 1;
        if (tailId === id) t += 1;
        if (line !== undefined) yield { id, line };
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
