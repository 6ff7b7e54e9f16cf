import { IdMap } from '../../core/id-map.js';
import { EntriesBuilder, find, SortedEntries } from './sorted-entries.js';

/**
 * The entries of every tail made from one empty tail: a log that only grows, in typed arrays that
 * double as they fill (no object, no BigInt kept per line: an import's tail is a hundred thousand).
 * Its first entries never change: a tail of them may be given views of its arrays.
 */
class Log {
  ids = new BigInt64Array(256);
  values = new Float64Array(256);
  /** For each entry, the one before it of the same id, or -1: worked out by `link`, as needed. */
  previous = new Int32Array(256);
  /** Each id's latest entry among those linked. */
  readonly latest = new IdMap<number>();
  length = 0;
  /** How many of the first entries are in ascending id order, each id above the one before. */
  ascending = 0;
  private last = 0n;
  private linked = 0;

  push(id: bigint, value: number): void {
    if (this.length === this.ids.length) this.grow();
    const i = this.length;
    this.ids[i] = id;
    this.values[i] = value;
    if (this.ascending === i && (i === 0 || id > this.last)) this.ascending = i + 1;
    this.last = id;
    this.length += 1;
  }

  /** Links every entry to the one before it of the same id (`previous`, `latest`). */
  link(): void {
    for (let i = this.linked; i < this.length; i += 1) {
      const id = this.ids[i] as bigint;
      this.previous[i] = this.latest.get(id) ?? -1;
      this.latest.set(id, i);
    }
    this.linked = this.length;
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
 * The WAL lines past what the wal-index holds (wal-index.ts), as a snapshot sees them: what
 * each says of its id (where the line starts, or DELETED), the last one of an id winning. Never
 * changed once made: `with` makes the tail after an append, sharing the entries before it, so an
 * append costs what it adds, and a snapshot kept meanwhile still sees only its own.
 */
export class WalTail {
  private sortedCache: SortedEntries | undefined;

  private constructor(
    private readonly log: Log,
    /** The log's entries this tail sees: its first `lines`. */
    readonly lines: number,
  ) {}

  static empty(): WalTail {
    return new WalTail(new Log(), 0);
  }

  /**
   * What the last of this tail's lines about `id` says, if any does. Lines in id order (an import
   * of ids in order, one that replaces them) are searched by halving, which costs nothing to set
   * up; any others through a map of each id's latest line.
   */
  get(id: bigint): number | undefined {
    if (this.inOrder()) {
      const sorted = this.sorted();
      const position = find(sorted, id);
      return position === -1 ? undefined : sorted.valueAt(position);
    }
    this.log.link();
    let entry = this.log.latest.get(id) ?? -1;
    while (entry >= this.lines) entry = this.log.previous[entry] as number;
    return entry === -1 ? undefined : this.log.values[entry];
  }

  /** The tail with entries of these ids, saying these values, after its own. */
  with(ids: readonly bigint[], values: readonly number[]): WalTail {
    const log = this.ownLog();
    for (let i = 0; i < ids.length; i += 1) log.push(ids[i] as bigint, values[i] as number);
    return new WalTail(log, log.length);
  }

  /**
   * The tail with the entries `read` pushes after its own, as it reads them: a WAL read on
   * makes no list of a BigInt a line first (which, a hundred thousand long, outlived V8's young
   * generation and was copied out of it). Should `read` fail, no tail sees what it pushed.
   */
  withRead(read: (push: (id: bigint, value: number) => void) => void): WalTail {
    const log = this.ownLog();
    read((id, value) => log.push(id, value));
    return new WalTail(log, log.length);
  }

  /**
   * The log to add this tail's next entries to: its own, or a copy of its entries where another tail was made from it
   * already (the entries past its own are not its).
   */
  private ownLog(): Log {
    if (this.lines === this.log.length) return this.log;
    const log = new Log();
    for (let i = 0; i < this.lines; i += 1) log.push(this.log.ids[i] as bigint, this.log.values[i] as number);
    return log;
  }

  /** Whether this tail's lines are in ascending id order, each id once. */
  private inOrder(): boolean {
    return this.lines <= this.log.ascending;
  }

  /** Each id's last entry, in id order. */
  sorted(): SortedEntries {
    // In id order, each id once: the log's own entries, as they are.
    if (this.sortedCache === undefined && this.inOrder())
      this.sortedCache = new SortedEntries(
        this.log.ids.subarray(0, this.lines),
        this.log.values.subarray(0, this.lines),
      );
    if (this.sortedCache === undefined) {
      this.log.link();
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
