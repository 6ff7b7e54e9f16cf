import type { Server } from 'node:http';
import { Server as NetServer, type AddressInfo, type Socket } from 'node:net';

const stops = new WeakMap<Server, Promise<void>>();
/** Per server: its open connections, and those with a request being answered. */
const connections = new WeakMap<Server, { open: Set<Socket>; busy: Set<Socket> }>();

/**
 * How long a stopping server keeps a connection that is between two requests, or has sent none
 * yet, before it closes it: its client may be sending a request on it at that very moment, which
 * is then read and answered (with `Connection: close`) rather than cut off unread, an answer lost
 * to a client that cannot know the request was never processed. A client in a run of requests
 * (an import) sends its next well within it; one idle longer meets the race any keep-alive
 * connection closed when idle has.
 */
const LINGER_MS = 1_000;

/**
 * Keeps count of which connections are answering a request: while a server stops, the others
 * linger (LINGER_MS) and then close. A connection whose answer was begun before the stop (its
 * headers kept it alive) lingers from the end of that answer.
 */
export function trackConnections(server: Server): void {
  const open = new Set<Socket>();
  const busy = new Set<Socket>();
  connections.set(server, { open, busy });
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      busy.delete(socket);
    });
  });
  server.on('request', (req, res) => {
    busy.add(req.socket);
    // A request read: its connection lingers no more. Its answer may take longer (a batch).
    if (isStopping(server)) req.socket.setTimeout(0);
    res.once('close', () => {
      busy.delete(req.socket);
      // Set after node's own keep-alive timeout (on 'finish'), which it replaces.
      if (isStopping(server) && !req.socket.destroyed) req.socket.setTimeout(LINGER_MS);
    });
  });
}

/** True once stopServer was called: answers in flight then close their connection behind them. */
export function isStopping(server: Server): boolean {
  return stops.has(server);
}

export interface ListeningAddress {
  host: string;
  /** The real port, also when 0 was asked for. */
  port: number;
  /** The base URL a client uses, e.g. `http://127.0.0.1:8080`. */
  url: string;
}

/** Starts listening; resolves with the address actually bound, rejects on EADDRINUSE and the like. */
export function listen(server: Server, port: number, host: string): Promise<ListeningAddress> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({ host: address.address, port: address.port, url: `http://${shownHost}:${address.port}` });
    });
  });
}

export interface StopOptions {
  /** After this long, connections still open (a client that never finishes its request) are cut. */
  graceMs?: number;
}

/**
 * Stops gracefully: no new connections; every request read is answered, with `Connection: close`,
 * and its connection closed behind it; a connection without a request in flight is closed once it
 * has lingered (LINGER_MS) with none (this needs trackConnections, which createPlantServer does).
 * Resolves once every connection is gone; calling it again gives the same promise. Waiting for the
 * store's last write is the caller's part (BatchingStore.drain).
 */
export function stopServer(server: Server, options: StopOptions = {}): Promise<void> {
  let stopped = stops.get(server);
  if (stopped === undefined) {
    stopped = closeGracefully(server, options.graceMs ?? 10_000);
    stops.set(server, stopped);
  }
  return stopped;
}

function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    // A client that never finishes its request must not hold the stop forever.
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    deadline.unref();
    // net.Server's close, not http.Server's: no new connections, and those open left as they are.
    // http.Server's would also end at once each connection between two requests, the very moment
    // its client may be sending one (an import's connections, each answer followed by the next).
    NetServer.prototype.close.call(server, () => {
      clearTimeout(deadline);
      // Now http.Server's own: it ends its checks of slow requests (no connection is left), and
      // emits 'close' a second time, which nothing here listens to.
      server.close();
      resolve();
    });
    const tracked = connections.get(server);
    const linger = Math.min(LINGER_MS, graceMs);
    // An idle socket that times out is closed by node (its server listens for no 'timeout'); a
    // request that arrives meanwhile is answered, and closes it.
    for (const socket of tracked?.open ?? []) if (!tracked?.busy.has(socket)) socket.setTimeout(linger);
  });
}
