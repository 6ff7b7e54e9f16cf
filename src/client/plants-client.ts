import { EnvHttpProxyAgent, request } from 'undici';
import { PlantsError } from '../core/errors.js';
import { stringifyJson } from '../core/json.js';
import type { NewPlant, Plant } from '../core/schemas.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { readAnswer, transportError } from './answer.js';
import { isRetryableError, isRetryableStatus, NO_RETRY, retryDelayMs, type RetryPolicy } from './retry.js';

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

/** Answers bigger than this are not a Plant or an Error; stop reading rather than fill memory. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export function createPlantsClient(options: PlantsClientOptions): PlantsClient {
  const timeoutMs = Math.round(options.timeoutSeconds * 1000);
  const env = options.env;
  // Node's fetch ignores proxy variables; undici's EnvHttpProxyAgent honours them (and NO_PROXY).
  const dispatcher = new EnvHttpProxyAgent({
    httpProxy: env.HTTP_PROXY ?? env.http_proxy ?? '',
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy ?? '',
    noProxy: env.NO_PROXY ?? env.no_proxy ?? '',
    connect: { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connections: options.connections ?? 1,
  });
  const url = `${options.baseUrl}/plants`;
  const retry = options.retry ?? NO_RETRY;
  const headers = {
    authorization: `Bearer ${options.token}`,
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': options.userAgent,
  };

  return {
    async createPlant(plant) {
      const body = stringifyJson(plant);
      for (let attempt = 1; ; attempt += 1) {
        const lastTry = attempt >= retry.tries;
        let answer: { status: number; text: string; retryAfter: string | string[] | undefined };
        try {
          const response = await request(url, { method: 'POST', dispatcher, headers, body });
          answer = { status: response.statusCode, text: await readLimited(response.body, response.statusCode), retryAfter: response.headers['retry-after'] };
        } catch (error) {
          if (error instanceof PlantsError) throw error;
          if (lastTry || !isRetryableError(error)) throw transportError(error, url, options.timeoutSeconds);
          await sleep(retryDelayMs(retry, attempt, undefined));
          continue;
        }
        if (lastTry || !isRetryableStatus(answer.status)) return readAnswer(answer.status, answer.text);
        await sleep(retryDelayMs(retry, attempt, answer.retryAfter));
      }
    },
    async close() {
      await dispatcher.close();
    },
  };
}

async function readLimited(stream: AsyncIterable<Buffer> & { destroy(): void }, status: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      stream.destroy();
      throw new PlantsError('bad_response', `the service answered HTTP ${status} with a body over ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
