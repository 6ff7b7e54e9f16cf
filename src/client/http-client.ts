import type { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { readAnswerBody } from './answer.js';
import type { PlantsClientOptions } from './client-options.js';
import { requestHeaders, timeoutMs, type RawAnswer, type Transport } from './transport.js';

/**
 * One request at a time on node:http(s): what a `plants create` (or get, or delete) needs, and the
 * cheapest way to it: Node's fetch is slower to load and, through its WebAssembly HTTP parser,
 * holds a finished process longer; the npm undici package is slower still to load
 * (docs/performance.md). --timeout bounds the whole exchange: connecting, sending, the answer. Redirects are not followed.
 */
export async function createHttpTransport(options: PlantsClientOptions): Promise<Transport> {
  // node:https (and TLS with it) is loaded only for an https service.
  const { request, Agent } = (options.baseUrl.startsWith('https:') ? await import('node:https') : await import('node:http')) as { request: typeof httpRequest; Agent: typeof HttpAgent };
  // An agent of our own, as the global one is but for a proxy: with NODE_USE_ENV_PROXY (Node 24),
  // the global agent sends through HTTP(S)_PROXY. Which proxy, if any, is the client's choice, from
  // options.env (a proxy is undici's part); a token checked directly must not reach one.
  const agent = new Agent({ keepAlive: true });
  return {
    request: (method, path, body, extra) =>
      new Promise<RawAnswer>((resolve, reject) => {
        const outgoing = request(
          `${options.baseUrl}${path}`,
          {
            method,
            agent,
            headers: { ...requestHeaders(options, body), ...extra, ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) },
            signal: options.stop === undefined ? AbortSignal.timeout(timeoutMs(options)) : AbortSignal.any([AbortSignal.timeout(timeoutMs(options)), options.stop]),
          },
          (response) => {
            const status = response.statusCode ?? 0;
            const { location, etag } = response.headers;
            const outcome = response.headers['plants-outcome'];
            const requestId = response.headers['x-request-id'];
            const named = { ...(location === undefined ? {} : { location }), ...(etag === undefined ? {} : { etag }), ...(typeof outcome === 'string' ? { outcome } : {}), ...(typeof requestId === 'string' ? { requestId } : {}) };
            readAnswerBody(response, status).then((text) => resolve({ status, text, ...named }), reject);
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      }),
    async close() {
      agent.destroy();
    },
  };
}
