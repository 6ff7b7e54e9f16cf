import { PlantsError } from '../core/errors.js';
import { printable } from '../core/printable.js';
import { ioReason } from '../fs/io-reason.js';
import type { Method, TransportError } from './transport.js';

/**
 * What a request sent but never answered may have done, in the words of what it asks: a write may
 * or may not have been made; a read, or the token check, changed nothing.
 */
export function unansweredMeaning(method: Method): string {
  if (method === 'GET') return 'a read changes nothing: it is safe to run again';
  const done = method === 'DELETE' ? 'deleted' : method === 'POST' ? 'created' : 'changed';
  return `the request was sent, so the plant may or may not have been ${done}`;
}

/** The request a failure is about. `connections`: how many the client opens at once (--concurrency). */
export interface Unanswered {
  method: Method;
  path: string;
  url: string;
  timeoutSeconds: number;
  /** What the request may have done, if it was sent (unansweredMeaning, or the caller's words). */
  unanswered: string;
  connections: number;
}

const SERVICE_HINT =
  'is the service running, at that base URL? ' +
  'plants config get base-url shows it, plants config set base-url URL changes it';
const PROXY_HINT =
  'is the proxy running, at that URL? HTTPS_PROXY or HTTP_PROXY names it; NO_PROXY names the hosts reached without it';

/**
 * A transport's failure (transport.ts) as a PlantsError: `effect: 'none'` where the request
 * cannot have reached the service, else `unknown`, and the message says what that means.
 */
export function transportError(failure: TransportError, request: Unanswered): PlantsError {
  const { method, path, url, timeoutSeconds, unanswered, connections } = request;
  const sent = { cause: failure, effect: 'unknown' as const };
  const notSent = { cause: failure };
  // Where it is the proxy that could not be reached, the message names it, and so does the hint.
  const to = failure.proxy === undefined ? url : `the proxy ${failure.proxy} for ${url}`;
  switch (failure.code) {
    case 'connect_timeout':
      return new PlantsError('timeout', `could not connect to ${to} within ${timeoutSeconds}s`, notSent);
    case 'answer_timeout':
      return new PlantsError('timeout', `no answer from ${url} within ${timeoutSeconds}s; ${unanswered}`, sent);
    case 'connect_refused': {
      const hint = failure.proxy === undefined ? SERVICE_HINT : PROXY_HINT;
      return new PlantsError('unreachable', `could not connect to ${to}: connection refused`, { hint, ...notSent });
    }
    case 'unknown_host':
      return new PlantsError('unreachable', `could not connect to ${to}: unknown host`, notSent);
    case 'connect_failed':
      return new PlantsError('unreachable', `could not connect to ${to}: ${printable(failure.message)}`, notSent);
    case 'local_limit': {
      // No connection could be made: nothing was sent. The limit is this machine's, not the service's.
      const remedy = connections > 1 ? 'lower --concurrency or raise ulimit -n' : 'raise ulimit -n';
      const message = `${ioReason(failure.cause)}: could not open a connection to ${url}; ${remedy}`;
      return new PlantsError('local_limit', message, notSent);
    }
    case 'reset_before_answer': {
      const message = `the connection to ${url} was closed before an answer; ${unanswered}`;
      return new PlantsError('unreachable', message, sent);
    }
    case 'answer_too_large':
      return new PlantsError('bad_response', failure.message, sent);
    case 'aborted':
      if (!failure.sent) return new PlantsError('interrupted', `stopped before sending ${method} ${path}`, notSent);
      return new PlantsError('interrupted', `stopped waiting for the answer of ${url}; ${unanswered}`, sent);
    case 'exchange_failed':
      return new PlantsError('unreachable', `could not reach ${url}: ${printable(failure.message)}`, sent);
  }
}
