import { Agent, EnvHttpProxyAgent } from 'undici';
import { readAnswerBody } from './answer.js';
import { usesProxy, type PlantsClientOptions } from './client-options.js';
import { requestHeaders, timeoutMs, type Transport } from './transport.js';

/**
 * Requests on the npm undici package: a pool of keep-alive connections (imports), the proxy
 * variables honoured (EnvHttpProxyAgent: Node's fetch ignores them), separate connect and answer
 * time-outs.
 */
export function createUndiciTransport(options: PlantsClientOptions): Transport {
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
