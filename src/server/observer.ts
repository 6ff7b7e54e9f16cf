/**
 * What the server tells whoever watches it (the metrics, when the admin listener is on). Types
 * only: the service runs without a watcher, and loads nothing for one.
 */
export interface RequestObserver {
  /** A request arrived: it is in flight until requestEnded. */
  requestStarted(): void;
  /** `route` is the template (never the raw path); `status` undefined when no answer was begun. */
  requestEnded(method: string, route: string, status: number | undefined, seconds: number): void;
}

/**
 * Told of each write of the batching store: how many items one inner call wrote, and how long it took to be durable.
 */
export type BatchObserver = (size: number, seconds: number) => void;
