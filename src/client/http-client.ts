import type { Agent as HttpAgent, ClientRequest, request as httpRequest } from 'node:http';
import { isOutOfDescriptors } from '../fs/io-reason.js';
import { readAnswerBody } from './answer.js';
import type { PlantsClientOptions } from './client-options.js';
import { requestHeaders, timeoutMs, type Method, type RawAnswer, type Transport } from './transport.js';

/**
 * Requests on node:http(s), one at a time (a `plants create`) or many (an import: a pool of
 * `connections` keep-alive sockets, at most, that requests wait their turn for). It is both the
 * cheapest to load (Node's fetch is slower to load and, through its WebAssembly HTTP parser, holds
 * a finished process longer; the npm undici package is slower still) and, for an import's stream
 * of requests, the one that holds least memory: undici's parser and its buffers hold a remote
 * import's memory tens of MB above node:http's (docs/performance.md). --timeout bounds each whole
 * exchange: waiting for a socket, connecting, sending, the answer. Redirects are not followed.
 * A stop (options.stop) abandons the requests in flight: each fails, and the client says how.
 */
export async function createHttpTransport(options: PlantsClientOptions): Promise<Transport> {
  // node:https (and TLS with it) is loaded only for an https service.
  const { request, Agent } = (options.baseUrl.startsWith('https:') ? await import('node:https') : await import('node:http')) as { request: typeof httpRequest; Agent: typeof HttpAgent };
  // An agent of our own, as the global one is but for a proxy: with NODE_USE_ENV_PROXY (Node 24),
  // the global agent sends through HTTP(S)_PROXY. Which proxy, if any, is the client's choice, from
  // options.env (a proxy is undici's part); a token checked directly must not reach one.
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections ?? 1 });
  const timeout = timeoutMs(options);
  // Taken apart once, not for each of an import's thousands of requests.
  const base = new URL(options.baseUrl);
  const target = { protocol: base.protocol, hostname: base.hostname.replace(/^\[|\]$/g, ''), port: base.port, prefix: base.pathname.replace(/\/$/, '') };
  const headers = { get: requestHeaders(options, undefined), post: requestHeaders(options, '') };
  // Each request in flight, and how to end it: the reason it ends with is what it fails with,
  // whatever error node:http then reports (a response cut short, a socket closed). One listener
  // for a stop ends them all, not one a request: an import sends a million.
  const inFlight = new Map<ClientRequest, (reason: Error) => void>();
  const { stop } = options;
  const abandon = () => {
    for (const end of inFlight.values()) end(abortError('stopped'));
  };
  stop?.addEventListener('abort', abandon, { once: true });
  // `within`: what is left of --timeout, which bounds a request and the tries it takes.
  const exchange = (method: Method, path: string, body: string | undefined, extra: Readonly<Record<string, string>> | undefined, within: number) =>
    new Promise<RawAnswer>((resolve, reject) => {
      const common = body === undefined ? headers.get : headers.post;
      const outgoing = request({
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        path: `${target.prefix}${path}`,
        method,
        agent,
        headers: { ...common, ...extra, ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }) },
      });
      let reason: Error | undefined;
      let answered = false;
      const end = (why: Error) => {
        reason ??= why;
        outgoing.destroy(why);
      };
      inFlight.set(outgoing, end);
      // The deadline of the whole exchange; where it finds no connection made yet, the request
      // was not sent.
      const deadline = setTimeout(() => end(outgoing.socket?.connecting === true ? connectTimeout() : abortError('timed out')), within);
      const settle = () => {
        clearTimeout(deadline);
        inFlight.delete(outgoing);
      };
      const fail = (error: unknown) => {
        settle();
        const stale = reason === undefined && !answered && outgoing.reusedSocket && (error as { code?: string }).code === 'ECONNRESET';
        reject(reason ?? (stale ? new StaleConnection(error) : error));
      };
      outgoing.on('response', (response) => {
        answered = true;
        const status = response.statusCode ?? 0;
        const { location, etag } = response.headers;
        const retryAfter = response.headers['retry-after'];
        const outcome = response.headers['plants-outcome'];
        const requestId = response.headers['x-request-id'];
        const named = {
          ...(retryAfter === undefined ? {} : { retryAfter }),
          ...(location === undefined ? {} : { location }),
          ...(etag === undefined ? {} : { etag }),
          ...(typeof outcome === 'string' ? { outcome } : {}),
          ...(typeof requestId === 'string' ? { requestId } : {}),
        };
        readAnswerBody(response, status).then(
          (text) => {
            settle();
            resolve({ status, text, ...named });
          },
          fail,
        );
      });
      outgoing.on('error', fail);
      if (stop?.aborted === true) end(abortError('stopped'));
      else outgoing.end(body);
    });
  // A kept-alive connection the service closed (its keep-alive timeout) just as a request reused
  // it: the request may or may not have reached the service. A GET changes nothing, so it is sent
  // again, as Node's documentation has it (request.reusedSocket), within the same --timeout; each
  // try that meets another such connection takes it out of the pool, so there is at most one try
  // more than sockets. Any other method fails as before: its outcome is unknown.
  const sockets = options.connections ?? 1;
  // No descriptor for another socket (ulimit -n): the request was not sent, whatever its method.
  // It waits for one of the connections open, which become the most the pool opens; with none
  // open, it fails (answer.ts: local_limit).
  const fewerSockets = (): boolean => {
    const open = openSockets(agent);
    if (open === 0) return false;
    if (open < agent.maxSockets) {
      agent.maxSockets = open;
      options.onFewerConnections?.(open);
    }
    return true;
  };
  return {
    async request(method, path, body, extra) {
      const until = Date.now() + timeout;
      let stale = 0;
      for (;;) {
        try {
          return await exchange(method, path, body, extra, until - Date.now());
        } catch (error) {
          if (isOutOfDescriptors(error) && stop?.aborted !== true && Date.now() < until && fewerSockets()) continue;
          if (!(error instanceof StaleConnection)) throw error;
          stale += 1;
          if (method !== 'GET' || stale > sockets || Date.now() >= until) throw error.cause;
        }
      }
    },
    async close() {
      stop?.removeEventListener('abort', abandon);
      agent.destroy();
    },
  };
}

/** The agent's sockets that hold a descriptor: connected, or connecting. */
function openSockets(agent: HttpAgent): number {
  const all = [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)].flat();
  return all.filter((socket) => socket !== undefined && !socket.destroyed).length;
}

/** A request reset on a reused socket before any answer: `cause` is what node:http reported. */
class StaleConnection extends Error {
  constructor(cause: unknown) {
    super('the kept-alive connection was closed as it was reused', { cause });
  }
}

/** An exchange ended by its deadline or a stop: read as one that may have been processed (answer.ts). */
function abortError(why: string): Error {
  const error = new Error(`the request was abandoned: ${why}`);
  error.name = 'AbortError';
  return error;
}

/** The deadline came before a connection was made: nothing was sent (answer.ts). */
function connectTimeout(): Error {
  return Object.assign(new Error('connecting timed out'), { code: 'PLANTS_CONNECT_TIMEOUT' });
}
