import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, EnvHttpProxyAgent } from 'undici';
import { PlantsError } from '../core/errors.js';
import { encodePlant } from '../core/plant-json.js';
import { readAnswer, readAnswerBody, transportError } from './answer.js';
import { postHeaders, timeoutMs, usesProxy, type PlantsClient, type PlantsClientOptions } from './client-options.js';
import { isRetryableError, isRetryableStatus, NO_RETRY, retryDelayMs } from './retry.js';

/**
 * The client on the npm undici package: a pool of keep-alive connections (imports), the proxy
 * variables honoured (EnvHttpProxyAgent: Node's fetch ignores them), separate connect and
 * response time-outs, and retries where a POST cannot have been processed.
 */
export function createUndiciClient(options: PlantsClientOptions): PlantsClient {
  const timeout = timeoutMs(options);
  const env = options.env;
  const pool = { connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout, connections: options.connections ?? 1 };
  // Node's fetch ignores proxy variables; undici's EnvHttpProxyAgent honours them (and NO_PROXY).
  // Without one, a plain Agent: the proxy agent would take every request's URL apart to choose.
  const dispatcher = usesProxy(env)
    ? new EnvHttpProxyAgent({
        ...pool,
        httpProxy: env.HTTP_PROXY ?? env.http_proxy ?? '',
        httpsProxy: env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy ?? '',
        noProxy: env.NO_PROXY ?? env.no_proxy ?? '',
      })
    : new Agent(pool);
  const url = `${options.baseUrl}/plants`;
  const target = new URL(url);
  // Taken apart once, not for each of an import's thousands of requests.
  const post = {
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: 'POST' as const,
    headers: postHeaders(options),
  };
  const retry = options.retry ?? NO_RETRY;

  return {
    async createPlant(plant) {
      const body = encodePlant(plant);
      for (let attempt = 1; ; attempt += 1) {
        const lastTry = attempt >= retry.tries;
        let answer: { status: number; text: string; retryAfter: string | string[] | undefined; location: string | undefined };
        try {
          const response = await dispatcher.request({ ...post, body });
          const location = response.headers.location;
          answer = {
            status: response.statusCode,
            text: await readAnswerBody(response.body, response.statusCode),
            retryAfter: response.headers['retry-after'],
            location: Array.isArray(location) ? location[0] : location,
          };
        } catch (error) {
          if (error instanceof PlantsError) throw error;
          if (lastTry || !isRetryableError(error)) throw transportError(error, url, options.timeoutSeconds);
          await sleep(retryDelayMs(retry, attempt, undefined));
          continue;
        }
        if (lastTry || !isRetryableStatus(answer.status)) return readAnswer(answer.status, answer.text, answer.location);
        await sleep(retryDelayMs(retry, attempt, answer.retryAfter));
      }
    },
    async close() {
      await dispatcher.close();
    },
  };
}
