import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/**
 * A forward proxy on 127.0.0.1 that tunnels CONNECT requests and records their targets; a plain
 * request sent to it as a proxy (`GET http://host/path`) it records too, and refuses (501).
 */
export async function fakeProxy(): Promise<{ url: string; tunnels: string[]; requests: string[]; close(): Promise<void> }> {
  const tunnels: string[] = [];
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(501).end();
  });
  server.on('connect', (req, clientSocket, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
