import type { TransportError } from './transport.js';

/**
 * When a POST may be sent again: only where it cannot have been processed. The connection was
 * refused (nothing reached the service), or the service said so itself: 429 Too Many Requests,
 * 503 Service Unavailable. Never after a timeout or a dropped connection.
 */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  tries: number;
  /** First backoff; doubled each try, with jitter, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const IMPORT_RETRY: RetryPolicy = { tries: 8, baseDelayMs: 100, maxDelayMs: 10_000 };

/**
 * How long refused connections are tried again before the service has answered once: about a
 * second, so that an import to a service that is not running says so at once. Once it has
 * answered, a refusal is a service restarting, and waits the whole policy.
 */
export const FIRST_CONNECTION_MS = 1_000;
export const NO_RETRY: RetryPolicy = { tries: 1, baseDelayMs: 0, maxDelayMs: 0 };

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/** A connection refused (by the service, or by the proxy on the way): nothing reached the service. */
export function isRetryableFailure(failure: TransportError): boolean {
  return failure.code === 'connect_refused';
}

/** How long to wait before try number `attempt` (1 = the first retry): Retry-After if given, else backoff. */
export function retryDelayMs(
  policy: RetryPolicy,
  attempt: number,
  retryAfter: string | string[] | undefined,
  now = Date.now(),
): number {
  const header = Array.isArray(retryAfter) ? retryAfter[0] : retryAfter;
  if (header !== undefined && header.trim() !== '') {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), policy.maxDelayMs * 6);
  }
  const backoff = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return backoff / 2 + Math.random() * (backoff / 2);
}
