import { IdMap } from '../core/id-map.js';
import { EntriesBuilder, type SortedEntries } from './sorted-entries.js';

/** The entries of every tail made from one empty tail: a log that only grows. */
interface Log {
  ids: bigint[];
  values: number[];
  /** For each entry, the one before it of the same id, or -1. */
  previous: number[];
  /** Each id's latest entry. */
  latest: IdMap<number>;
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
    return new JournalTail({ ids: [], values: [], previous: [], latest: new IdMap() }, 0);
  }

  /** What the last of this tail's lines about `id` says, if any does. */
  get(id: bigint): number | undefined {
    let entry = this.log.latest.get(id) ?? -1;
    while (entry >= this.lines) entry = this.log.previous[entry] as number;
    return entry === -1 ? undefined : this.log.values[entry];
  }

  /** The tail with these entries after its own. */
  with(entries: readonly { id: bigint; value: number }[]): JournalTail {
    // Another tail was made from this one already: the entries past this one's are not its own.
    const log = this.lines === this.log.ids.length ? this.log : this.copy();
    for (const { id, value } of entries) {
      log.previous.push(log.latest.get(id) ?? -1);
      log.latest.set(id, log.ids.length);
      log.ids.push(id);
      log.values.push(value);
    }
    return new JournalTail(log, log.ids.length);
  }

  /** Each id's last entry, in id order. */
  sorted(): SortedEntries {
    if (this.sortedCache === undefined) {
      const last = new IdMap<number>();
      for (let i = 0; i < this.lines; i += 1) last.set(this.log.ids[i] as bigint, this.log.values[i] as number);
      const builder = new EntriesBuilder();
      const ids = last.ids();
      for (const id of ids) builder.push(id, last.get(id) as number);
      this.sortedCache = builder.build();
    }
    return this.sortedCache;
  }

  private copy(): Log {
    const log: Log = { ids: [], values: [], previous: [], latest: new IdMap() };
    for (let i = 0; i < this.lines; i += 1) {
      const id = this.log.ids[i] as bigint;
      log.previous.push(log.latest.get(id) ?? -1);
      log.latest.set(id, i);
      log.ids.push(id);
      log.values.push(this.log.values[i] as number);
    }
    return log;
  }
}
