import type { Agent as HttpAgent, ClientRequest, request as httpRequest } from 'node:http';
import type { PlantsClientOptions } from './client-options.js';
import { connectionAgent } from './connection-agent.js';
import { exchange, StaleConnection, type Exchanges } from './http-exchange.js';
import { RequestSlots } from './request-slots.js';
import { requestHeaders, timeoutMs } from './request-settings.js';
import { TransportError, type Transport } from './transport.js';

/**
 * Requests on node:http(s), straight to the service or, where `proxy` is given, through its
 * tunnels (proxy-tunnel.ts): one at a time (a `plants create`) or many (an import: a pool of
 * `connections` keep-alive connections, at most, that requests wait their turn for). It is both
 * the cheapest to load (Node's fetch is slower to load and, through its WebAssembly HTTP parser,
 * holds a finished process longer; the npm undici package is slower still) and, for an import's
 * stream of requests, the one that holds least memory: undici's parser and its buffers hold a
 * remote import's memory tens of MB above node:http's (docs/performance.md). It keeps the
 * contract of transport.ts; redirects are not followed. A stop (options.stop) abandons the
 * requests in flight: each fails, and the client says how.
 */
export async function createHttpTransport(options: PlantsClientOptions, proxy?: URL): Promise<Transport> {
  const base = new URL(options.baseUrl);
  const https = base.protocol === 'https:';
  const { request } = (https ? await import('node:https') : await import('node:http')) as {
    request: typeof httpRequest;
  };
  const connections = await connectionAgent(base, proxy, options);
  const { agent } = connections;
  const timeout = timeoutMs(options);
  const sockets = options.connections ?? 1;
  const { stop } = options;
  const stopped = () => stop?.aborted === true;
  // Taken apart once, not for each of an import's thousands of requests.
  const on: Exchanges = {
    request,
    agent,
    target: {
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[|\]$/g, ''),
      port: base.port,
      prefix: base.pathname.replace(/\/$/, ''),
    },
    headers: { get: requestHeaders(options, undefined), post: requestHeaders(options, '') },
    inFlight: new Map<ClientRequest, (why: 'deadline' | 'stop') => void>(),
    stop,
  };
  // One listener for a stop ends every request in flight, not one a request: an import sends a million.
  const abandon = () => {
    for (const end of on.inFlight.values()) end('stop');
  };
  stop?.addEventListener('abort', abandon, { once: true });
  const slots = new RequestSlots(sockets, stop);
  // No descriptor for another connection (ulimit -n): the request was not sent, whatever its
  // method. It waits for one of the connections open, which become the most the pool opens; with
  // none open, it fails (local_limit).
  const fewerSockets = async (): Promise<boolean> => {
    await connections.counted();
    const open = openSockets(agent);
    if (open === 0) return false;
    if (open < agent.maxSockets) {
      agent.maxSockets = open;
      options.onFewerConnections?.(open);
    }
    return true;
  };
  const waitsForDescriptor = async (error: unknown, until: number): Promise<boolean> => {
    if (!(error instanceof TransportError) || error.code !== 'local_limit') return false;
    return !stopped() && Date.now() < until && (await fewerSockets());
  };
  return {
    async request(method, path, body, extra) {
      const until = Date.now() + timeout;
      if (stopped()) throw new TransportError('aborted', false, 'stopped before it was sent');
      const turn = slots.take(until);
      if (turn !== undefined) await turn;
      try {
        // A kept-alive connection the service closed (its keep-alive timeout) just as a request
        // reused it: the request may or may not have reached the service. A GET changes nothing,
        // so it is sent again, as Node's documentation has it (request.reusedSocket), within the
        // same deadline; each try that meets another such connection takes it out of the pool,
        // so there is at most one try more than connections. Any other method fails.
        for (let stale = 0; ;) {
          try {
            return await exchange(on, { method, path, body, extra }, until - Date.now());
          } catch (error) {
            if (await waitsForDescriptor(error, until)) continue;
            if (!(error instanceof StaleConnection)) throw error;
            stale += 1;
            if (method !== 'GET' || stale > sockets || Date.now() >= until) throw error.failure;
          }
        }
      } finally {
        slots.give();
      }
    },
    async close() {
      stop?.removeEventListener('abort', abandon);
      await connections.close();
    },
  };
}

/** The agent's connections that hold a descriptor: connected, or connecting. */
function openSockets(agent: HttpAgent): number {
  const all = [...Object.values(agent.sockets), ...Object.values(agent.freeSockets)].flat();
  return all.filter((socket) => socket !== undefined && !socket.destroyed).length;
}
