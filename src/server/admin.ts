import type { IncomingMessage, Server } from 'node:http';
import serviceDocument from '../../openapi.json' with { type: 'json' };
import { readRequestBody } from './body.js';
import { failure } from './failures.js';
import { createRequestHandler, refusalOnHeaders } from './handle-request.js';
import { createHardenedServer, DEFAULT_LIMITS, type PlantServerLimits } from './http-server.js';
import { isStopping } from './lifecycle.js';
import { tooLarge } from './plant-routes.js';
import { sendJson, sendJsonText, type AnswerOptions } from './respond.js';
import { RouteTable } from './routes.js';

/** Whether the service should be sent requests now, and if not, why (a short phrase, no file names). */
export type Readiness = { ready: true } | { ready: false; reason: string };

export interface AdminServerOptions {
  readiness(): Readiness;
  /** The Prometheus text of a scrape, and its content type. */
  metrics(): Promise<{ contentType: string; text: string }>;
  /** Told of failures that are the server's fault (a scrape that throws). */
  onUnexpectedError: (error: unknown) => void;
  limits?: Partial<PlantServerLimits>;
}

interface AdminContext {
  options: AdminServerOptions;
  maxBodyBytes: number;
  answer(): AnswerOptions;
}

const OPENAPI_TEXT = JSON.stringify(serviceDocument);

/** The admin listener's bodies are a few bytes; anything bigger is no probe's. */
const ADMIN_BODY_BYTES = 1024;

async function skipBody(req: IncomingMessage, maxBodyBytes: number): Promise<void> {
  if (!(await readRequestBody(req, maxBodyBytes, false)).complete) throw tooLarge(maxBodyBytes);
}

/** The admin listener's routes: for probes and scrapers, so no token, and no plant data. */
export const ADMIN_ROUTES = new RouteTable<AdminContext>('the admin listener', [
  {
    method: 'GET',
    path: '/livez',
    async handle(req, res, _params, { maxBodyBytes, answer }) {
      await skipBody(req, maxBodyBytes);
      // Answered at all: the event loop runs.
      sendJson(res, 200, { status: 'live' }, {}, answer());
    },
  },
  {
    method: 'GET',
    path: '/readyz',
    async handle(req, res, _params, { options, maxBodyBytes, answer }) {
      await skipBody(req, maxBodyBytes);
      const readiness = options.readiness();
      if (readiness.ready) sendJson(res, 200, { status: 'ready' }, {}, answer());
      else sendJson(res, 503, { status: 'not_ready', reason: readiness.reason }, {}, answer());
    },
  },
  {
    method: 'GET',
    path: '/metrics',
    async handle(req, res, _params, { options, maxBodyBytes, answer }) {
      await skipBody(req, maxBodyBytes);
      const { contentType, text } = await options.metrics();
      if (res.headersSent || res.destroyed) return;
      res.writeHead(200, {
        'content-type': contentType,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'content-length': String(Buffer.byteLength(text)),
        ...(answer().close ? { connection: 'close' } : {}),
      });
      res.end(text);
    },
  },
  {
    method: 'GET',
    path: '/openapi.json',
    async handle(req, res, _params, { maxBodyBytes, answer }) {
      await skipBody(req, maxBodyBytes);
      sendJsonText(res, 200, OPENAPI_TEXT, answer());
    },
  },
]);

/**
 * The admin listener: /livez, /readyz, /metrics and /openapi.json, without a token, on a port of
 * its own (kept off the load balancer's). The same limits and raw answers as the service's
 * listener guard it.
 */
export function createAdminServer(options: AdminServerOptions): Server {
  const limits = { ...DEFAULT_LIMITS, maxBodyBytes: ADMIN_BODY_BYTES, ...options.limits };
  const server = createHardenedServer({
    limits,
    // No route takes CONNECT: this is always a 404 or a 405.
    refuseConnect: (req) =>
      refusalOnHeaders(req, ADMIN_ROUTES, ADMIN_ROUTES.match(req.url ?? '')) ??
      failure(405, 'method_not_allowed', 'the admin listener accepts only GET', { allow: 'GET' }),
  });
  const handle = createRequestHandler({
    table: ADMIN_ROUTES,
    context: { options, maxBodyBytes: limits.maxBodyBytes, answer: () => ({ close: isStopping(server) }) },
    maxBodyBytes: limits.maxBodyBytes,
    isStopping: () => isStopping(server),
    onUnexpectedError: options.onUnexpectedError,
  });
  server.on('request', (req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  return server;
}
