import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { PlantStore } from '../core/store.js';
import { createTokenCheck } from './auth.js';
import { failure } from './failures.js';
import { createRequestHandler, refusalOnHeaders } from './handle-request.js';
import { PLANT_ROUTES } from './plant-routes.js';
import { isStopping, trackConnections } from './lifecycle.js';
import { onClientError, onConnect } from './raw-answers.js';
import { logRawAnswer, logRequest } from './request-log.js';

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

export interface PlantServerOptions {
  store: PlantStore;
  /** The bearer tokens accepted; at least one. */
  tokens: readonly string[];
  /** Receives one line per request (time, method, path, status, duration). No logging when absent. */
  log?: (line: string) => void;
  /** Receives failures that are the server's fault (store trouble, bugs); by default one line to `log`. */
  onUnexpectedError?: (error: unknown) => void;
  limits?: Partial<PlantServerLimits>;
}

/**
 * The Plant Store service on plain node:http: one route (POST /plants) needs no framework, and it
 * starts faster. Returns the server unstarted: `listen` (./lifecycle.ts) starts it, `stopServer`
 * stops it gracefully.
 */
export function createPlantServer(options: PlantServerOptions): Server {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const isAuthorized = createTokenCheck(options.tokens);
  const log = options.log;
  const reportUnexpected =
    options.onUnexpectedError ??
    ((error: unknown) => log?.(`${new Date().toISOString()} internal error: ${describeError(error)}`));

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

  const handle = createRequestHandler({
    table: PLANT_ROUTES,
    context: { store: options.store, maxBodyBytes: limits.maxBodyBytes, answer: () => ({ close: isStopping(server) }) },
    isAuthorized,
    maxBodyBytes: limits.maxBodyBytes,
    isStopping: () => isStopping(server),
    onUnexpectedError: (error) => reportUnexpected(error),
  });
  server.on('request', (req: IncomingMessage, res) => {
    if (log !== undefined) logRequest(req, res, log);
    // handle answers every failure itself; this catch is for a bug in that, so it cannot crash the process.
    handle(req, res).catch(() => res.destroy());
  });
  // An `Expect` other than 100-continue: node would answer 417 without a body; serve it as usual.
  server.on('checkExpectation', (req: IncomingMessage, res) => server.emit('request', req, res));
  // Answers node:http gives us no ServerResponse for: unparseable or too slow requests, CONNECT.
  server.on(
    'clientError',
    onClientError(limits, (answer) => {
      if (log !== undefined) logRawAnswer(log, answer.status);
    }),
  );
  server.on(
    'connect',
    onConnect(
      (req) => refusalOnHeaders(req, PLANT_ROUTES, PLANT_ROUTES.match(req.url ?? ''), isAuthorized) ?? failure(405, 'method_not_allowed', '/plants accepts only POST', { allow: 'POST' }),
      (req, answer) => {
        if (log !== undefined) logRawAnswer(log, answer.status, req);
      },
    ),
  );
  return server;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return (error.stack ?? `${error.name}: ${error.message}`).replace(/\n\s*/g, ' | ');
  return String(error);
}
