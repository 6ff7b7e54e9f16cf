import { PlantsError } from '../core/errors.js';
import { encodePlant } from '../core/plant-line.js';
import { MAX_ANSWER_BYTES, readAnswer, transportError } from './answer.js';
import type { PlantsClient, PlantsClientOptions } from './plants-client.js';

/**
 * One POST at a time on Node's built-in fetch, never retried. --timeout bounds the whole exchange
 * (connecting, sending, the answer); redirects are not followed, since the contract has none.
 */
export function createFetchClient(options: PlantsClientOptions): PlantsClient {
  const url = `${options.baseUrl}/plants`;
  return {
    async createPlant(plant) {
      let status: number;
      let body: string;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${options.token}`,
            'content-type': 'application/json',
            accept: 'application/json',
            'user-agent': options.userAgent,
          },
          body: encodePlant(plant),
          redirect: 'manual',
          signal: AbortSignal.timeout(Math.round(options.timeoutSeconds * 1000)),
        });
        status = response.status;
        body = await readLimited(response, status);
      } catch (error) {
        if (error instanceof PlantsError) throw error;
        throw transportError(error, url, options.timeoutSeconds);
      }
      return readAnswer(status, body);
    },
    async close() {},
  };
}

async function readLimited(response: Response, status: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      await response.body?.cancel();
      throw new PlantsError('bad_response', `the service answered HTTP ${status} with a body over ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
