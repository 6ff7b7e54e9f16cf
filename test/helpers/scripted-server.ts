import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedServer {
  url: string;
  /** What reached it, in order: `METHOD /path`, and what it did. */
  seen: string[];
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/** A connection, as a script sees it: how many requests it answered before, and for how long it was idle since. */
export interface Connection {
  socket: Socket;
  served: number;
  idleMs: number;
}

/** What the server does with a request read whole. */
export type Script = (request: IncomingMessage, response: ServerResponse, connection: Connection) => void;

/**
 * An HTTP server on 127.0.0.1 port 0 that reads each request whole, then does as `script` says:
 * for the transport's contract (test/client/transport.test.ts), the answers and the closes a
 * well-behaved service never gives on purpose, or gives only by a race.
 */
export async function scriptedServer(script: Script): Promise<ScriptedServer> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const state = new WeakMap<Socket, { served: number; idleSince: number }>();
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const socket = request.socket;
      const connection = state.get(socket) ?? { served: 0, idleSince: Date.now() };
      seen.push(`${request.method} ${request.url}`);
      response.on('finish', () => {
        connection.served += 1;
        connection.idleSince = Date.now();
      });
      script(request, response, { socket, served: connection.served, idleMs: Date.now() - connection.idleSince });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    state.set(socket, { served: 0, idleSince: Date.now() });
  });
  // The server's own idle close is left out: the scripts stand in for it.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Plant as a 200 answers it. */
export function answerPlant(response: ServerResponse, headers: Record<string, string> = {}): void {
  response.writeHead(200, { 'content-type': 'application/json', ...headers }).end('{"name":"x"}');
}

/** A script that answers every request with a Plant. */
export const answersPlant: Script = (_request, response) => answerPlant(response);
