import type { NewPlant, Plant } from '../core/schemas.js';
import type { RetryPolicy } from './retry.js';

export interface PlantsClientOptions {
  baseUrl: string;
  token: string;
  timeoutSeconds: number;
  /** HTTP(S)_PROXY and NO_PROXY, upper or lower case, as in the environment. */
  env: Readonly<Record<string, string | undefined>>;
  userAgent: string;
  /** Keep-alive connections to the service (bulk imports use many). Default 1. */
  connections?: number;
  /** Default: no retry. */
  retry?: RetryPolicy;
}

export interface PlantsClient {
  /**
   * POSTs the plant and reads the answer. Sent again only as the retry policy allows, where the
   * POST cannot have been processed (see retry.ts).
   */
  createPlant(plant: NewPlant): Promise<Plant>;
  close(): Promise<void>;
}

const PROXY_VARIABLES = ['HTTP_PROXY', 'http_proxy', 'HTTPS_PROXY', 'https_proxy'];

/** The headers of every POST /plants, whichever client sends it. */
export function postHeaders(options: PlantsClientOptions): Record<string, string> {
  return {
    authorization: `Bearer ${options.token}`,
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': options.userAgent,
  };
}

/** The time-out in milliseconds (at least 1: 0 would mean none to node and undici). */
export function timeoutMs(options: PlantsClientOptions): number {
  return Math.max(1, Math.round(options.timeoutSeconds * 1000));
}

/** Whether the environment names a proxy (NO_PROXY alone names none). */
export function usesProxy(env: PlantsClientOptions['env']): boolean {
  return PROXY_VARIABLES.some((name) => (env[name] ?? '') !== '');
}
