import type { PlantStore, PlantWriter } from '../core/store.js';
import { failureFor } from './failures.js';
import { Outage, type OutageWords } from './outage.js';

const STORE_WORDS: OutageWords = {
  started: () =>
    'plants serve: answering 503 until the store takes a write again; the requests refused meanwhile are ' +
    'counted, not logged',
  recovered: 'the store takes writes again',
  ended: (why, refused) =>
    `plants serve: ${why}; ${refused} ${refused === 1 ? 'request was' : 'requests were'} refused with 503 meanwhile`,
};

/** How often a store that is out is probed (PlantStore.probe), one probe at a time. */
const PROBE_EVERY_MS = 1_000;

/**
 * What the log says of a store that cannot be used (a full disk, a lock held too long): the first
 * failure, once, and once it takes writes again (see Outage: a write or a probe succeeded, and no
 * request was refused for a second) or the server stops, how many requests were refused with 503
 * meanwhile; not a line per refused request, which on a full disk was thousands a second, also
 * under --quiet. A failure of another cause during an outage (the lock, then the disk) is reported
 * as it comes. Failures that are not the store's (bugs, 500s) are each reported.
 *
 * While it is out, the store is probed every PROBE_EVERY_MS: a load balancer sends no request to an
 * instance whose /readyz answers 503, so without a probe no write would ever come to end it.
 */
export class StoreOutage {
  private readonly outage: Outage;
  /** The message of the failure last reported during the outage. */
  private cause = '';
  /** Requests refused with 503 for the store's sake since the server started: the metrics' counter. */
  refusedTotal = 0;
  /** The timer of the probes, while the store is out. */
  private probing: ReturnType<typeof setInterval> | undefined;

  /**
   * `report` says a failure as the log always has (naming the request it failed, when known);
   * `say` writes a line of the outage's own; `probe` is the store's.
   */
  constructor(
    private readonly report: (error: unknown, requestId?: string) => void,
    say: (line: string) => void,
    private readonly probe: () => Promise<void>,
  ) {
    this.outage = new Outage(say, STORE_WORDS);
  }

  /**
   * A failure of a request (the server's onUnexpectedError): reported, or counted if the store is known to be failing
   * so.
   */
  failed(error: unknown, requestId?: string): void {
    if (failureFor(error).failure.status !== 503) {
      this.report(error, requestId);
      return;
    }
    this.refusedTotal += 1;
    const cause = error instanceof Error ? error.message : String(error);
    // The failure first, then what the server does about it.
    if (!this.outage.isOut || this.cause !== cause) this.report(error, requestId);
    this.cause = cause;
    this.outage.refused();
    this.probeWhileOut();
  }

  /**
   * Whether the store is out now: from its first refused request until it takes writes again (/readyz answers 503
   * meanwhile).
   */
  get isOut(): boolean {
    return this.outage.isOut;
  }

  /** A write that changed the store. */
  wrote(): void {
    this.outage.worked();
  }

  /** The server stops: an outage still on is accounted for. */
  stopped(): void {
    this.stopProbing();
    this.outage.stopped();
  }

  private probeWhileOut(): void {
    if (this.probing !== undefined) return;
    let busy = false;
    this.probing = setInterval(() => {
      if (!this.outage.isOut) return this.stopProbing();
      if (busy) return;
      busy = true;
      // A probe that fails says nothing new: the store is still out.
      this.probe()
        .then(
          () => this.outage.worked(),
          () => undefined,
        )
        .finally(() => (busy = false));
    }, PROBE_EVERY_MS).unref();
  }

  private stopProbing(): void {
    clearInterval(this.probing);
    this.probing = undefined;
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
    count: (filter) => store.count(filter),
    probe: () => store.probe(),
    close: () => store.close(),
  };
}
