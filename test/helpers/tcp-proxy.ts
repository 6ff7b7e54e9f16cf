import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';

export interface TcpProxy {
  /** Where to connect instead of the target: 127.0.0.1 and this port. */
  port: number;
  /** The target goes away: every connection through the proxy is cut, and new ones are closed at once. */
  cut(): void;
  /** The target is back: new connections go through again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP proxy on 127.0.0.1 port 0 to `host:port`: the seam through which a test makes a database
 * go away and come back, as a network or a restart would, without stopping the shared server.
 */
export async function startTcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = createConnection({ host, port });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
