import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Failure } from './failures.js';
import { trackConnections } from './lifecycle.js';
import { onClientError, onConnect } from './raw-answers.js';

/** Limits against abuse. Each is documented in the README; the defaults suit one machine's store. */
export interface PlantServerLimits {
  /** Largest request body read; more is refused with 413. A NewPlant is well under 1 KiB. */
  maxBodyBytes: number;
  /** Time for the request line and headers to arrive (a byte a minute does not hold the server). */
  headersTimeoutMs: number;
  /** Time for the whole request, body included, to arrive. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /** Connections beyond this are closed as they arrive. */
  maxConnections: number;
}

export const DEFAULT_LIMITS: Readonly<PlantServerLimits> = {
  maxBodyBytes: 64 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
};

export interface HardenedServerOptions {
  limits: PlantServerLimits;
  /** The answer to a CONNECT, which node:http hands over as a bare socket. */
  refuseConnect: (req: IncomingMessage) => Failure;
  /** Told of each answer written on a bare socket (see raw-answers.ts): a CONNECT has its request. */
  onRawAnswer?: (status: number, req?: IncomingMessage) => void;
}

/**
 * A node:http server with the limits above, whose every answer, also to what node:http cannot
 * parse, is a whole HTTP answer with an Error body: the service's listener and the admin one are
 * held to the same guarantees. Requests go to its 'request' listeners; it is returned unstarted.
 */
export function createHardenedServer({ limits, refuseConnect, onRawAnswer }: HardenedServerOptions): Server {
  const server = createServer({
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // Node checks the two timeouts above on this interval (30 s by default, which would double them).
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    // Node would answer a request without Host itself, with an empty 400; we answer every request.
    requireHostHeader: false,
  });
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  trackConnections(server);
  // An `Expect` other than 100-continue: node would answer 417 without a body; serve it as usual.
  server.on('checkExpectation', (req: IncomingMessage, res) => server.emit('request', req, res));
  // Answers node:http gives us no ServerResponse for: unparseable or too slow requests, CONNECT.
  server.on(
    'clientError',
    onClientError(limits, (answer) => onRawAnswer?.(answer.status)),
  );
  server.on(
    'connect',
    onConnect(refuseConnect, (req, answer) => onRawAnswer?.(answer.status, req)),
  );
  // An accept that failed (EMFILE, where libuv could not close the connection quietly): node says
  // so with 'error' and listens on, but with no listener the process would end. (A failure to
  // listen goes to listen's own listener: lifecycle.ts.) AcceptOutage counts them.
  server.on('error', () => undefined);
  return server;
}
