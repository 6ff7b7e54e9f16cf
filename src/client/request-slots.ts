import { TransportError } from './transport.js';

/**
 * At most `size` requests at a time, each on a connection of its own; the others wait their turn,
 * in order, each until its deadline or a stop (nothing sent then). Node's agent would queue them
 * too, but counts a connection only once it is made: through a proxy, where a tunnel takes a
 * while, a burst of requests would open a tunnel each.
 */
export class RequestSlots {
  private free: number;
  private readonly waiting: { take(): void; fail(failure: TransportError): void }[] = [];

  constructor(size: number, stop: AbortSignal | undefined) {
    this.free = size;
    const abandon = () => {
      const stopped = new TransportError('aborted', false, 'stopped before it was sent');
      for (const waiter of this.waiting.splice(0)) waiter.fail(stopped);
    };
    stop?.addEventListener('abort', abandon, { once: true });
  }

  /** Undefined where a slot is free at once (an import's case: no promise for each of its requests). */
  take(until: number): Promise<void> | undefined {
    if (this.free > 0) {
      this.free -= 1;
      return undefined;
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        take: () => {
          clearTimeout(timer);
          resolve();
        },
        fail: (failure: TransportError) => {
          clearTimeout(timer);
          reject(failure);
        },
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        waiter.fail(new TransportError('connect_timeout', false, 'no connection was free in time'));
      }, until - Date.now());
      this.waiting.push(waiter);
    });
  }

  /** The slot taken goes to the first request waiting, or is free again. */
  give(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.free += 1;
    else next.take();
  }
}
