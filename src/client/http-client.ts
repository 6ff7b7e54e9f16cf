import type { request as httpRequest } from 'node:http';
import { PlantsError } from '../core/errors.js';
import { encodePlant } from '../core/plant-json.js';
import { readAnswer, readAnswerBody, transportError } from './answer.js';
import { postHeaders, timeoutMs, type PlantsClient, type PlantsClientOptions } from './client-options.js';

/**
 * One POST at a time on node:http(s), never retried: what a `plants create` needs, and the
 * cheapest way to it. (Node's fetch costs ~40 ms to load and, through its WebAssembly HTTP parser,
 * holds a finished process ~75 ms more; the npm undici package costs ~90 ms to load.) --timeout
 * bounds the whole exchange: connecting, sending, the answer. Redirects are not followed.
 */
export async function createHttpClient(options: PlantsClientOptions): Promise<PlantsClient> {
  const url = `${options.baseUrl}/plants`;
  // node:https (and TLS with it) is loaded only for an https service.
  const { request } = (url.startsWith('https:') ? await import('node:https') : await import('node:http')) as { request: typeof httpRequest };
  const headers = postHeaders(options);
  const post = (body: string) =>
    new Promise<{ status: number; text: string; location: string | undefined }>((resolve, reject) => {
      const outgoing = request(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          signal: AbortSignal.timeout(timeoutMs(options)),
        },
        (response) =>
          readAnswerBody(response, response.statusCode ?? 0).then((text) => resolve({ status: response.statusCode ?? 0, text, location: response.headers.location }), reject),
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  return {
    async createPlant(plant) {
      let answer: { status: number; text: string; location: string | undefined };
      try {
        answer = await post(encodePlant(plant));
      } catch (error) {
        if (error instanceof PlantsError) throw error;
        throw transportError(error, url, options.timeoutSeconds);
      }
      return readAnswer(answer.status, answer.text, answer.location);
    },
    async close() {},
  };
}
