import type { PlantStore, PlantWriter } from '../core/store.js';
import { failureFor } from './failures.js';

/**
 * What the log says of a store that cannot be used (a full disk, a lock held too long): the first
 * failure, once, and once a write succeeds again (or the server stops), how many requests were
 * refused with 503 meanwhile; not a line per refused request, which on a full disk was thousands a
 * second, also under --quiet. A failure of another cause during an outage (the lock, then the
 * disk) is reported as it comes. Failures that are not the store's (bugs, 500s) are each reported.
 */
export class StoreOutage {
  /** Since the first refused request: how many, and the message of the failure last reported. Undefined while the store works. */
  private outage: { refused: number; cause: string } | undefined;
  /** Requests refused with 503 for the store's sake since the server started: the metrics' counter. */
  refusedTotal = 0;

  /**
   * `report` says a failure as the log always has (naming the request it failed, when known);
   * `say` writes a line of the outage's own.
   */
  constructor(
    private readonly report: (error: unknown, requestId?: string) => void,
    private readonly say: (line: string) => void,
  ) {}

  /** A failure of a request (the server's onUnexpectedError): reported, or counted if the store is known to be failing so. */
  failed(error: unknown, requestId?: string): void {
    if (failureFor(error).failure.status !== 503) {
      this.report(error, requestId);
      return;
    }
    this.refusedTotal += 1;
    const cause = error instanceof Error ? error.message : String(error);
    if (this.outage === undefined) {
      this.outage = { refused: 1, cause };
      this.report(error, requestId);
      this.say('plants serve: answering 503 until the store takes a write again; the requests refused meanwhile are counted, not logged');
      return;
    }
    this.outage.refused += 1;
    if (this.outage.cause !== cause) {
      this.outage.cause = cause;
      this.report(error, requestId);
    }
  }

  /** Whether the store is out now: from its first refused request until a write succeeds (/readyz answers 503 meanwhile). */
  get isOut(): boolean {
    return this.outage !== undefined;
  }

  /** A write that changed the store: the outage, if any, is over. */
  wrote(): void {
    this.end('the store takes writes again');
  }

  /** The server stops: an outage still on is accounted for. */
  stopped(): void {
    this.end('stopping');
  }

  private end(why: string): void {
    if (this.outage === undefined) return;
    const { refused } = this.outage;
    this.outage = undefined;
    this.say(`plants serve: ${why}; ${refused} ${refused === 1 ? 'request was' : 'requests were'} refused with 503 meanwhile`);
  }
}

/**
 * `store`, telling `onWritten` of each write that changed it (a plant added or deleted): one that
 * only found duplicates or absent ids wrote nothing, so it proves nothing of the disk.
 */
export function watchWrites(store: PlantStore, onWritten: () => void): PlantStore {
  const watched = (writer: PlantWriter): PlantWriter => ({
    async addAll(plants) {
      const outcomes = await writer.addAll(plants);
      if (outcomes.includes('added')) onWritten();
      return outcomes;
    },
    async putAll(puts) {
      const outcomes = await writer.putAll(puts);
      if (outcomes.includes('created') || outcomes.includes('updated')) onWritten();
      return outcomes;
    },
    async patchAll(patches) {
      const outcomes = await writer.patchAll(patches);
      if (outcomes.some((outcome) => typeof outcome === 'object' && outcome.changed)) onWritten();
      return outcomes;
    },
    async deleteAll(targets) {
      const outcomes = await writer.deleteAll(targets);
      if (outcomes.includes('deleted')) onWritten();
      return outcomes;
    },
  });
  return {
    ...watched(store),
    hold: (work) => store.hold((writer) => work(watched(writer))),
    get: (id) => store.get(id),
    list: (query) => store.list(query),
    close: () => store.close(),
  };
}
