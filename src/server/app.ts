import type { IncomingMessage, Server } from 'node:http';
import type { PlantStore } from '../core/store.js';
import { createTokenCheck } from './auth.js';
import { notingBatches } from './batch-note.js';
import { failure } from './failures.js';
import { createRequestHandler, refusalOnHeaders } from './handle-request.js';
import { createHardenedServer, DEFAULT_LIMITS, type PlantServerLimits } from './http-server.js';
import { isStopping } from './lifecycle.js';
import { messageLine, type LogFormat } from './log-line.js';
import type { RequestObserver } from './observer.js';
import { PLANT_ROUTES, type PlantContext } from './plant-routes.js';
import { requestIdOf, requestIdOfAnswer, setRequestId } from './request-id.js';
import { logRawAnswer, watchRequest, type RequestNotes, type RequestWatch } from './request-log.js';

export { DEFAULT_LIMITS, type PlantServerLimits } from './http-server.js';

export interface PlantServerOptions {
  store: PlantStore;
  /** The bearer tokens accepted; at least one. */
  tokens: readonly string[];
  /** Receives one line per request (time, method, route, status, duration, request id). No logging when absent. */
  log?: (line: string) => void;
  /** How `log`'s lines are written (default `text`). */
  logFormat?: LogFormat;
  /** Told of every request as it starts and ends (the metrics). */
  observer?: RequestObserver;
  /**
   * Receives failures that are the server's fault (store trouble, bugs), with the id of the
   * request that met it, for its line to name; by default one line to `log`.
   */
  onUnexpectedError?: (error: unknown, requestId?: string) => void;
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
  const { log, observer } = options;
  const watch: RequestWatch = {
    table: PLANT_ROUTES,
    format: options.logFormat ?? 'text',
    ...(log === undefined ? {} : { log }),
    ...(observer === undefined ? {} : { observer }),
  };
  const reportUnexpected =
    options.onUnexpectedError ??
    ((error: unknown, requestId?: string) =>
      log?.(
        messageLine(
          watch.format,
          new Date().toISOString(),
          'error',
          `internal error: ${describeError(error)}`,
          true,
          requestId,
        ),
      ));
  // A request id that holds a token would put it in the log.
  const holdsToken = (id: string) => options.tokens.some((token) => id.includes(token));

  const server = createHardenedServer({
    limits,
    refuseConnect: (req) =>
      refusalOnHeaders(req, PLANT_ROUTES, PLANT_ROUTES.match(req.url ?? ''), isAuthorized) ??
      failure(405, 'method_not_allowed', '/plants accepts only POST', { allow: 'POST' }),
    onRawAnswer: (status, req) => logRawAnswer(watch, status, req),
  });
  const context: PlantContext = {
    store: options.store,
    maxBodyBytes: limits.maxBodyBytes,
    answer: () => ({ close: isStopping(server) }),
  };
  const handle = createRequestHandler({
    table: PLANT_ROUTES,
    context,
    isAuthorized,
    maxBodyBytes: limits.maxBodyBytes,
    isStopping: () => isStopping(server),
    onUnexpectedError: (error, res) => reportUnexpected(error, requestIdOfAnswer(res)),
  });
  server.on('request', (req: IncomingMessage, res) => {
    // Echoed on every answer, so a client can quote it and find the request's log line by it.
    const requestId = requestIdOf(req.headers['x-request-id'], holdsToken);
    setRequestId(res, requestId);
    let own: PlantContext | undefined;
    if (log !== undefined) {
      // The log line says the size of the batch the request's write went in: its own store notes it.
      const notes: RequestNotes = {};
      own = { ...context, store: notingBatches(options.store, (size) => (notes.batchSize = size)) };
      watchRequest(req, res, requestId, watch, notes);
    } else if (observer !== undefined) watchRequest(req, res, requestId, watch);
    // handle answers every failure itself; this catch is for a bug in that, so it cannot crash the process.
    handle(req, res, own).catch(() => res.destroy());
  });
  return server;
}

function describeError(error: unknown): string {
  if (error instanceof Error) return (error.stack ?? `${error.name}: ${error.message}`).replace(/\n\s*/g, ' | ');
  return String(error);
}
