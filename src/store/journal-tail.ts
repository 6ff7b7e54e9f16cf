import { IdMap } from '../core/id-map.js';
import { EntriesBuilder, type SortedEntries } from './sorted-entries.js';

/**
 * The entries of every tail made from one empty tail: a log that only grows, in typed arrays that
 * double as they fill (no object, no BigInt kept per line: an import's tail is a hundred thousand).
 */
class Log {
  ids = new BigInt64Array(256);
  values = new Float64Array(256);
  /** For each entry, the one before it of the same id, or -1. */
  previous = new Int32Array(256);
  /** Each id's latest entry. */
  readonly latest = new IdMap<number>();
  length = 0;

  push(id: bigint, value: number): void {
    if (this.length === this.ids.length) this.grow();
    const i = this.length;
    this.ids[i] = id;
    this.values[i] = value;
    this.previous[i] = this.latest.get(id) ?? -1;
    this.latest.set(id, i);
    this.length += 1;
  }

  private grow(): void {
    const ids = new BigInt64Array(this.ids.length * 2);
    const values = new Float64Array(this.ids.length * 2);
    const previous = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    values.set(this.values);
    previous.set(this.previous);
    [this.ids, this.values, this.previous] = [ids, values, previous];
  }
}

/**
 * The journal lines past what the index holds (store-index.ts), as a snapshot sees them: what
 * each says of its id (where the line starts, or DELETED), the last one of an id winning. Never
 * changed once made: `with` makes the tail after an append, sharing the entries before it, so an
 * append costs what it adds, and a snapshot kept meanwhile still sees only its own.
 */
export class JournalTail {
  private sortedCache: SortedEntries | undefined;

  private constructor(
    private readonly log: Log,
    /** The log's entries this tail sees: its first `lines`. */
    readonly lines: number,
  ) {}

  static empty(): JournalTail {
    return new JournalTail(new Log(), 0);
  }

  /** What the last of this tail's lines about `id` says, if any does. */
  get(id: bigint): number | undefined {
    let entry = this.log.latest.get(id) ?? -1;
    while (entry >= this.lines) entry = this.log.previous[entry] as number;
    return entry === -1 ? undefined : this.log.values[entry];
  }

  /** The tail with entries of these ids, saying these values, after its own. */
  with(ids: readonly bigint[], values: readonly number[]): JournalTail {
    let { log } = this;
    // Another tail was made from this one already: the entries past this one's are not its own.
    if (this.lines !== log.length) {
      log = new Log();
      for (let i = 0; i < this.lines; i += 1) log.push(this.log.ids[i] as bigint, this.log.values[i] as number);
    }
    for (let i = 0; i < ids.length; i += 1) log.push(ids[i] as bigint, values[i] as number);
    return new JournalTail(log, log.length);
  }

  /** Each id's last entry, in id order. */
  sorted(): SortedEntries {
    if (this.sortedCache === undefined) {
      const builder = new EntriesBuilder();
      const { ids, previous, values } = this.log;
      // An entry that is its id's last (within this tail), in the order they came.
      const later = new Int32Array(this.lines).fill(-1);
      for (let i = 0; i < this.lines; i += 1) if ((previous[i] as number) !== -1) later[previous[i] as number] = i;
      for (let i = 0; i < this.lines; i += 1) if (later[i] === -1) builder.push(ids[i] as bigint, values[i] as number);
      this.sortedCache = builder.build();
    }
    return this.sortedCache;
  }
}
