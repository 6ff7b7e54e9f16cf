import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const stops = new WeakMap<Server, Promise<void>>();
/** Per server: its open connections, and those with a request being answered. */
const connections = new WeakMap<Server, { open: Set<Socket>; busy: Set<Socket> }>();

/**
 * Keeps count of which connections are answering a request. node's closeIdleConnections only closes
 * connections that served a request already; one that connected and sent nothing (or half a request
 * line) would hold a stop until the grace period ends, since node stops enforcing timeouts on close.
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
    res.once('close', () => busy.delete(req.socket));
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
 * Stops gracefully: no new connections; connections without a request in flight closed now (this
 * needs trackConnections, which createPlantServer does); requests in flight answered, with
 * `Connection: close`, and their connections closed behind them. Resolves once every connection is
 * gone; calling it again gives the same promise. Waiting for the store's last write is the caller's
 * part (BatchingStore.drain).
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
    server.close(() => {
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
    const tracked = connections.get(server);
    for (const socket of tracked?.open ?? []) if (!tracked?.busy.has(socket)) socket.destroy();
  });
}
