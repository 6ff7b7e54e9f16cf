import type { PlantsClientOptions } from './client-options.js';

/** The headers of every request, whichever route it takes. */
export function requestHeaders(options: PlantsClientOptions, body: string | undefined): Record<string, string> {
  return {
    authorization: `Bearer ${options.token}`,
    accept: 'application/json',
    'user-agent': options.userAgent,
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  };
}

/** The time-out in milliseconds (at least 1). */
export function timeoutMs(options: PlantsClientOptions): number {
  return Math.max(1, Math.round(options.timeoutSeconds * 1000));
}
