import { endianness } from 'node:os';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

/** Where each half of a 64-bit integer is, in 32-bit words, on this machine. */
const [LOW, HIGH] = endianness() === 'LE' ? [0, 1] : [1, 0];

/**
 * Entries in ascending id order, each id with a number: where its line is (in the database file or
 * the WAL), or -1 for an id the WAL deleted. Read by position or searched by id; never
 * changed once made: two typed arrays, 16 bytes a plant, where a Map of them holds an object each.
 */
export interface Entries {
  readonly size: number;
  idAt(position: number): bigint;
  valueAt(position: number): number;
  /** The position of the first entry whose id is greater than `id` (the size if there is none). */
  after(id: bigint): number;
}

/** The position of `id` among `entries`, or -1. */
export function find(entries: Entries, id: bigint): number {
  const position = entries.after(id) - 1;
  return position >= 0 && entries.idAt(position) === id ? position : -1;
}

/** Entries held in two typed arrays, searched without making a BigInt for each id compared. */
export class SortedEntries implements Entries {
  static readonly EMPTY = new SortedEntries(new BigInt64Array(0), new Float64Array(0));

  /**
   * The same ids as 32-bit halves: reading a BigInt64Array makes a new BigInt each time, and a
   * search of a million ids made twenty, which an import's duplicate checks turned into most of
   * its garbage.
   */
  private readonly halves: Int32Array;

  constructor(
    /** Ascending. */
    readonly ids: BigInt64Array,
    readonly values: Float64Array,
  ) {
    this.halves = new Int32Array(ids.buffer, ids.byteOffset, ids.length * 2);
  }

  get size(): number {
    return this.ids.length;
  }

  idAt(position: number): bigint {
    return this.ids[position] as bigint;
  }

  valueAt(position: number): number {
    return this.values[position] as number;
  }

  after(id: bigint): number {
    // The id as its high half (signed) and low half (unsigned), compared as numbers; worked out
    // without a BigInt where a double holds the id exactly (an import asks for each of its rows).
    let high32: number;
    let low32: number;
    if (id >= MIN_SAFE && id <= MAX_SAFE) {
      const n = Number(id);
      high32 = Math.floor(n / 4294967296);
      low32 = n - high32 * 4294967296;
    } else {
      high32 = Number(BigInt.asIntN(32, id >> 32n));
      low32 = Number(BigInt.asUintN(32, id));
    }
    const { halves } = this;
    let low = 0;
    let high = this.ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const idHigh = halves[2 * middle + HIGH] as number;
      if (idHigh < high32 || (idHigh === high32 && (halves[2 * middle + LOW] as number) >>> 0 <= low32))
        low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * Entries gathered as they come, in typed arrays that double as they fill: a million make no array
 * of a million BigInts (and their garbage) on the way. An id that fits a double exactly is written
 * as its two halves, without a BigInt.
 */
export class EntriesBuilder {
  private ids = new BigInt64Array(1024);
  private halves = new Int32Array(this.ids.buffer);
  private values = new Float64Array(1024);
  private count = 0;
  /** Whether the ids came in ascending order, each greater than the one before. */
  ascending = true;
  private last: number | bigint | undefined;

  get size(): number {
    return this.count;
  }

  /** Adds an id given as a safe integer (a JS number) or a bigint. */
  push(id: number | bigint, value: number): void {
    if (this.count === this.ids.length) this.grow();
    const i = this.count;
    if (typeof id === 'number') {
      this.halves[2 * i + LOW] = (id % 4294967296) | 0;
      this.halves[2 * i + HIGH] = Math.floor(id / 4294967296) | 0;
    } else this.ids[i] = id;
    this.values[i] = value;
    if (this.last !== undefined && !(id > this.last)) this.ascending = false;
    this.last = id;
    this.count += 1;
  }

  /** The entries; in id order already (`ascending`), or put in order here. */
  build(): SortedEntries {
    const ids = this.ids.subarray(0, this.count);
    const values = this.values.subarray(0, this.count);
    if (this.ascending) return new SortedEntries(ids, values);
    const order = Array.from({ length: this.count }, (_, i) => i).sort((a, b) => {
      const x = ids[a] as bigint;
      const y = ids[b] as bigint;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    return new SortedEntries(
      BigInt64Array.from(order, (i) => ids[i] as bigint),
      Float64Array.from(order, (i) => values[i] as number),
    );
  }

  private grow(): void {
    const ids = new BigInt64Array(this.ids.length * 2);
    ids.set(this.ids);
    const values = new Float64Array(this.values.length * 2);
    values.set(this.values);
    this.ids = ids;
    this.halves = new Int32Array(ids.buffer);
    this.values = values;
  }
}

/**
 * The entries of `older` and `newer` in id order, `newer`'s of an id over `older`'s: a wal-index
 * and a tail, the next wal-index.
 */
export function mergeEntries(older: Entries, newer: SortedEntries): SortedEntries {
  if (older.size === 0) return newer;
  const merged = new EntriesBuilder();
  let i = 0;
  let t = 0;
  while (i < older.size || t < newer.size) {
    const fromNewer = t < newer.size && (i >= older.size || newer.idAt(t) <= older.idAt(i));
    if (fromNewer && i < older.size && newer.idAt(t) === older.idAt(i)) i += 1;
    if (fromNewer) {
      merged.push(newer.idAt(t), newer.valueAt(t));
      t += 1;
    } else {
      merged.push(older.idAt(i), older.valueAt(i));
      i += 1;
    }
  }
  return merged.build();
}
