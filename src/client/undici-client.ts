import { setTimeout as sleep } from 'node:timers/promises';
import { EnvHttpProxyAgent, request } from 'undici';
import { PlantsError } from '../core/errors.js';
import { encodePlant } from '../core/plant-line.js';
import { MAX_ANSWER_BYTES, readAnswer, transportError } from './answer.js';
import type { PlantsClient, PlantsClientOptions } from './plants-client.js';
import { isRetryableError, isRetryableStatus, NO_RETRY, retryDelayMs } from './retry.js';

/**
 * The client on the npm undici package: a pool of keep-alive connections (imports), the proxy
 * variables honoured (EnvHttpProxyAgent: Node's fetch ignores them), separate connect and
 * response time-outs, and retries where a POST cannot have been processed.
 */
export function createUndiciClient(options: PlantsClientOptions): PlantsClient {
  const timeoutMs = Math.max(1, Math.round(options.timeoutSeconds * 1000));
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
      const body = encodePlant(plant);
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
  // Answers bigger than this are not a Plant or an Error; stop reading rather than fill memory.
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
