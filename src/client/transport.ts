import type { PlantsClientOptions } from './client-options.js';

/** One answer of the service, as sent: its status, its body as text, and the headers we read. */
export interface RawAnswer {
  status: number;
  text: string;
  retryAfter?: string;
  location?: string;
  /** The plant's state, where the answer names one (GET, PUT, PATCH of /plants/{id}). */
  etag?: string;
  /** What a PUT or PATCH did: `created`, `updated` or `unchanged` (the Plants-Outcome header). */
  outcome?: string;
  /** The service's id of the request (X-Request-Id): quoted in the error of a 5xx, for its log. */
  requestId?: string;
}

/** The methods the client sends: the contract's POST, and the extensions. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How requests reach the service: node:http, or undici through a proxy.
 * A transport failure (no connection, a time-out, a reset) is thrown as it comes; answer.ts
 * reads what it means.
 */
export interface Transport {
  /** `path` is under the base URL: `/plants`, `/plants/1`. */
  /** `headers` add to (or replace) those of every request: preconditions, a PATCH's media type. */
  request(method: Method, path: string, body?: string, headers?: Readonly<Record<string, string>>): Promise<RawAnswer>;
  close(): Promise<void>;
}

/** The headers of every request, whichever transport sends it. */
export function requestHeaders(options: PlantsClientOptions, body: string | undefined): Record<string, string> {
  return {
    authorization: `Bearer ${options.token}`,
    accept: 'application/json',
    'user-agent': options.userAgent,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
}

/** The time-out in milliseconds (at least 1: 0 would mean none to node and undici). */
export function timeoutMs(options: PlantsClientOptions): number {
  return Math.max(1, Math.round(options.timeoutSeconds * 1000));
}
