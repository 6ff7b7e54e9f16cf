import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface FakeProxy {
  url: string;
  /** The target of each CONNECT, as asked (`host:port`). */
  tunnels: string[];
  /** Plain requests sent to it as a proxy (`GET http://host/path`): refused with 501. */
  requests: string[];
  /** The Proxy-Authorization header of each CONNECT (undefined where there was none). */
  credentials: (string | undefined)[];
  /** From now on, leave each CONNECT unanswered (a proxy that hangs): undone by `hang(false)`. */
  hang(on?: boolean): void;
  close(): Promise<void>;
}

/**
 * A forward proxy on 127.0.0.1 that tunnels CONNECT requests and records their targets; a target
 * it cannot reach it answers 502, as squid or nginx do. A plain request sent to it as a proxy it
 * records too, and refuses (501).
 */
export async function fakeProxy(): Promise<FakeProxy> {
  const tunnels: string[] = [];
  const requests: string[] = [];
  const credentials: (string | undefined)[] = [];
  const sockets = new Set<Socket>();
  let hanging = false;
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(501).end();
  });
  server.on('connect', (req, clientSocket: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    credentials.push(req.headers['proxy-authorization']);
    sockets.add(clientSocket);
    clientSocket.on('close', () => sockets.delete(clientSocket));
    clientSocket.on('error', () => undefined);
    if (hanging) return;
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    let established = false;
    const upstream = connect(Number(port), host, () => {
      established = true;
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => {
      if (established) clientSocket.destroy();
      else clientSocket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    // Either side gone, the tunnel is: as a real proxy closes it.
    upstream.on('close', () => {
      sockets.delete(upstream);
      clientSocket.end();
    });
    clientSocket.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    requests,
    credentials,
    hang(on = true) {
      hanging = on;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
