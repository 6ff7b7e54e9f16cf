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
 * How requests reach the service: straight to it, or through a proxy's tunnel. Every route keeps
 * this contract (test/client/transport.test.ts holds each to it):
 *
 * - **Time-out**: one deadline a request, `timeoutSeconds` from the moment it is handed over, for
 *   all of it: waiting for a connection of the pool, connecting (through a proxy, its tunnel
 *   too), sending, and the whole answer. A GET sent again (below), or a request that waited for a
 *   descriptor, stays within the same deadline.
 * - **Sent again** here: only a GET whose kept-alive connection the service closed as it was
 *   reused, before any answer (a read changes nothing), at most once more than there are
 *   connections. Never a request on a connection made for it, and never a POST, PUT, PATCH or
 *   DELETE that may have been processed. The client's policy (retry.ts) decides from the codes.
 * - **Idle connections** are closed 1 s before the server's `Keep-Alive: timeout` hint, and after
 *   IDLE_MS without one, so that a connection the service is about to close is not reused.
 * - **Failures** are TransportErrors: a code of ours, and whether the request may have reached
 *   the service.
 */
export interface Transport {
  /** `path` is under the base URL: `/plants`, `/plants/1`. */
  /** `headers` add to (or replace) those of every request: preconditions, a PATCH's media type. */
  request(method: Method, path: string, body?: string, headers?: Readonly<Record<string, string>>): Promise<RawAnswer>;
  close(): Promise<void>;
}

/** The longest a connection is kept idle where the service gives no hint (undici's default too). */
export const IDLE_MS = 4_000;

/**
 * Why a request got no answer. Nothing was sent for the first five: no connection was made for it
 * (refused, in time, a host unknown, another reason: a network unreachable, a proxy refusing the
 * tunnel, TLS), or this process had no descriptor for one. The request may have been processed for
 * the next four: the connection closed, or the deadline came, before the whole answer; the answer
 * was too large to read, or broke HTTP. `aborted`: the stop signal, before or after sending.
 */
export type FailureCode =
  | 'connect_refused'
  | 'connect_timeout'
  | 'unknown_host'
  | 'connect_failed'
  | 'local_limit'
  | 'reset_before_answer'
  | 'answer_timeout'
  | 'answer_too_large'
  | 'exchange_failed'
  | 'aborted';

/** A request's failure, in our terms: what each route makes of its library's errors. */
export class TransportError extends Error {
  readonly proxy?: string;

  /**
   * `sent`: the request may have reached the service. `proxy`: the proxy's origin (without a user
   * name or password) where it is the proxy that could not be reached, or refused the tunnel.
   */
  constructor(
    readonly code: FailureCode,
    readonly sent: boolean,
    message: string,
    options: { cause?: unknown; proxy?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'TransportError';
    if (options.proxy !== undefined) this.proxy = options.proxy;
  }
}
