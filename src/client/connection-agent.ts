import type { Agent as HttpAgent, ClientRequestArgs } from 'node:http';
import type { Duplex } from 'node:stream';
import type { PlantsClientOptions } from './client-options.js';
import { timeoutMs } from './request-settings.js';
import { IDLE_MS } from './transport.js';

export interface Connections {
  agent: HttpAgent;
  /**
   * Resolved once the agent counts every connection that holds a descriptor: it counts a tunnel
   * only once the proxy has made it, a connection straight to the service as soon as it is begun.
   */
  counted(): Promise<void>;
  close(): Promise<void>;
}

/** The keep-alive connections of a client, and how they are made: to the service, or through `proxy`. */
export async function connectionAgent(
  base: URL,
  proxy: URL | undefined,
  options: PlantsClientOptions,
): Promise<Connections> {
  // node:https (and TLS with it) is loaded only for an https service.
  const https = base.protocol === 'https:';
  const { Agent } = (https ? await import('node:https') : await import('node:http')) as { Agent: typeof HttpAgent };
  const connections = options.connections ?? 1;
  // Node's agent honours a server's `Keep-Alive: timeout=N` hint (closing an idle connection a
  // second before it) only when it has an idle time-out of its own to lower: without one, on Node
  // 20 and 24, it keeps it until the server has closed it, and a request may cross the close
  // (transport.ts). An agent of our own besides, as the global one is but for a proxy: with
  // NODE_USE_ENV_PROXY (Node 24), the global agent sends through HTTP(S)_PROXY, where the choice is
  // the client's (proxy-route.ts): a token checked directly must not reach a proxy.
  const settings = { keepAlive: true, maxSockets: connections, timeout: IDLE_MS };
  if (proxy === undefined) {
    const agent = new Agent(settings);
    return { agent, counted: () => Promise.resolve(), close: async () => agent.destroy() };
  }
  const { proxyTunnels } = await import('./proxy-tunnel.js');
  const tunnels = proxyTunnels(proxy, base, { connections, timeoutMs: timeoutMs(options) });
  const tls = https ? await import('node:tls') : undefined;
  // Node's callback: a stream, or an error alone (its type asks for both).
  type Made = (error: Error | null, stream: Duplex) => void;
  type Failed = (error: Error) => void;
  class TunnelAgent extends Agent {
    // Node's documented way to give an agent connections of another kind (agent.createConnection).
    override createConnection(connection: ClientRequestArgs, made?: Made): undefined {
      tunnels.open((error, socket) => {
        if (socket === undefined) return void (made as Failed | undefined)?.(error ?? new Error('no tunnel'));
        // TLS to the service, inside the tunnel, as the agent would over a connection of its own.
        made?.(null, tls === undefined ? socket : tls.connect({ ...(connection as object), socket }));
      });
      return undefined;
    }
  }
  const agent = new TunnelAgent(settings);
  return {
    agent,
    async counted() {
      while (tunnels.opening() > 0) await tunnels.settled();
    },
    async close() {
      agent.destroy();
      await tunnels.close();
    },
  };
}
