import { EnvHttpProxyAgent } from 'undici';
import { readAnswerBody } from './answer.js';
import type { PlantsClientOptions } from './client-options.js';
import { requestHeaders, timeoutMs, type Transport } from './transport.js';

/**
 * Requests on the npm undici package, through a proxy: the proxy variables honoured
 * (EnvHttpProxyAgent: Node's fetch and node:http ignore them), a pool of keep-alive connections
 * (imports), separate connect and answer time-outs. Without a proxy, node:http sends
 * (http-client.ts): it holds less memory.
 */
export function createUndiciTransport(options: PlantsClientOptions): Transport {
  const timeout = timeoutMs(options);
  const env = options.env;
  const pool = { connect: { timeout }, headersTimeout: timeout, bodyTimeout: timeout, connections: options.connections ?? 1 };
  // The proxy variables as the environment sets them, NO_PROXY included.
  const dispatcher = new EnvHttpProxyAgent({
    ...pool,
    httpProxy: env.HTTP_PROXY ?? env.http_proxy ?? '',
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy ?? '',
    noProxy: env.NO_PROXY ?? env.no_proxy ?? '',
  });
  // Taken apart once, not for each of an import's thousands of requests.
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/$/, '');
  const headers = { get: requestHeaders(options, undefined), post: requestHeaders(options, '') };
  return {
    async request(method, path, body, extra) {
      const common = body === undefined ? headers.get : headers.post;
      const response = await dispatcher.request({ origin: base.origin, path: `${prefix}${path}`, method, headers: extra === undefined ? common : { ...common, ...extra }, body: body ?? null, ...(options.stop === undefined ? {} : { signal: options.stop }) });
      const text = await readAnswerBody(response.body, response.statusCode);
      const first = (name: string) => {
        const value = response.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const named = { retryAfter: first('retry-after'), location: first('location'), etag: first('etag'), outcome: first('plants-outcome'), requestId: first('x-request-id') };
      return { status: response.statusCode, text, ...Object.fromEntries(Object.entries(named).filter(([, value]) => value !== undefined)) };
    },
    async close() {
      await dispatcher.close();
    },
  };
}
