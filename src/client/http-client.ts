import type { request as httpRequest } from 'node:http';
import { readAnswerBody } from './answer.js';
import type { PlantsClientOptions } from './client-options.js';
import { requestHeaders, timeoutMs, type RawAnswer, type Transport } from './transport.js';

/**
 * One request at a time on node:http(s): what a `plants create` (or get, or delete) needs, and the
 * cheapest way to it. (Node's fetch costs ~40 ms to load and, through its WebAssembly HTTP parser,
 * holds a finished process ~75 ms more; the npm undici package costs ~90 ms to load.) --timeout
 * bounds the whole exchange: connecting, sending, the answer. Redirects are not followed.
 */
export async function createHttpTransport(options: PlantsClientOptions): Promise<Transport> {
  // node:https (and TLS with it) is loaded only for an https service.
  const { request } = (options.baseUrl.startsWith('https:') ? await import('node:https') : await import('node:http')) as { request: typeof httpRequest };
  return {
    request: (method, path, body) =>
      new Promise<RawAnswer>((resolve, reject) => {
        const outgoing = request(
          `${options.baseUrl}${path}`,
          {
            method,
            headers: { ...requestHeaders(options, body), ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) },
            signal: AbortSignal.timeout(timeoutMs(options)),
          },
          (response) => {
            const status = response.statusCode ?? 0;
            const location = response.headers.location;
            readAnswerBody(response, status).then((text) => resolve({ status, text, ...(location === undefined ? {} : { location }) }), reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      }),
    async close() {},
  };
}
