import type { Duplex } from 'node:stream';
import { Pool } from 'undici';
import { connectFailure } from './transport-failures.js';
import { TransportError } from './transport.js';

export interface ProxyTunnels {
  /** A connection to the service through the proxy: a CONNECT tunnel, or the failure to make one (nothing sent). */
  open(done: (error: TransportError | null, socket?: Duplex) => void): void;
  /** Tunnels asked for and not yet made or failed: each holds a descriptor. */
  opening(): number;
  /** Resolved once the next of them is made or has failed. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The connections of a client through an HTTP(S) proxy: a CONNECT tunnel to the service's host
 * and port each, made by undici (the connection to the proxy, TLS to an https proxy, the CONNECT
 * exchange), with the proxy's credentials where its URL has them. The requests go over them as
 * over any other connection (http-client.ts), so that a client keeps one contract on either route.
 */
export function proxyTunnels(
  proxy: URL,
  target: URL,
  { connections, timeoutMs }: { connections: number; timeoutMs: number },
): ProxyTunnels {
  const pool = new Pool(proxy.origin, { connections, connect: { timeout: timeoutMs }, headersTimeout: timeoutMs });
  const authority = `${target.hostname}:${target.port || (target.protocol === 'https:' ? 443 : 80)}`;
  const headers: Record<string, string> = { host: authority };
  if (proxy.username !== '') {
    const credentials = `${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`;
    headers['proxy-authorization'] = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  // Named without its user name and password, in a message.
  const shown = proxy.origin;
  let opening = 0;
  const waiting: (() => void)[] = [];
  const settle = () => {
    opening -= 1;
    for (const wake of waiting.splice(0)) wake();
  };
  return {
    open(done) {
      opening += 1;
      // Bounded as the request that waits for it is (transport.ts): a tunnel never made in time ends.
      pool.connect({ path: authority, headers, signal: AbortSignal.timeout(timeoutMs) }).then(
        ({ statusCode, socket }) => {
          settle();
          if (statusCode >= 200 && statusCode < 300) return void done(null, socket);
          socket.destroy();
          const refused = `the proxy answered HTTP ${statusCode} to the tunnel`;
          done(new TransportError('connect_failed', false, refused, { proxy: shown }));
        },
        (error: unknown) => {
          settle();
          done(tunnelFailure(error, shown));
        },
      );
    },
    opening: () => opening,
    settled: () => new Promise((resolve) => waiting.push(resolve)),
    close: () => pool.destroy(),
  };
}

/** Why no tunnel was made, in the transport's terms. */
function tunnelFailure(error: unknown, proxy: string): TransportError {
  const { name, code } = error as { name?: string; code?: string };
  const about = { cause: error, proxy };
  if (name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new TransportError('connect_timeout', false, 'the proxy made no tunnel in time', about);
  }
  if (code === 'UND_ERR_SOCKET') {
    return new TransportError('connect_failed', false, 'the proxy closed the connection', about);
  }
  return connectFailure(error, proxy);
}
