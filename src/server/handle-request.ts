import type { IncomingMessage, ServerResponse } from 'node:http';
import { addPlant, toPlant } from '../core/create.js';
import { encodePlant } from '../core/plant-json.js';
import { deletePlant, getPlant } from '../core/read-delete.js';
import type { PlantStore } from '../core/store.js';
import { ClientGone, isJsonContentType, newPlantOfBody, readRequestBody } from './body.js';
import { failure, failureFor, rejection, type Failure } from './failures.js';
import { plantId, listQuery } from './parameters.js';
import { sendFailure, sendJson, sendJsonText, sendNoContent } from './respond.js';
import { matchRoute, ROUTE_METHODS, type RouteMatch } from './routes.js';

export interface RequestHandlerOptions {
  store: PlantStore;
  isAuthorized: (authorization: string | undefined) => boolean;
  maxBodyBytes: number;
  /** True once the server is stopping: answers then close their connection. */
  isStopping: () => boolean;
  /** Told about failures that are the server's fault (store trouble, bugs), with their cause. */
  onUnexpectedError: (error: unknown) => void;
}

/**
 * Every request, in the order that leaks least: the token first (a stranger learns nothing, not
 * even which paths exist), then path and method, then parameters and body. Every outcome is an
 * answer with a body (but a 204): nothing a client sends makes this throw or leaves the connection
 * without an answer.
 */
export function createRequestHandler(options: RequestHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { store } = options;
  const tooLarge = () => rejection(413, 'payload_too_large', `the request body is over the limit of ${options.maxBodyBytes} bytes`);
  const close = () => ({ close: options.isStopping() });

  /** Refuses a request on its headers; the body is skipped first so the connection can be reused. */
  async function refuseEarly(req: IncomingMessage, res: ServerResponse, answer: Failure): Promise<void> {
    const skipped = await readRequestBody(req, options.maxBodyBytes, false);
    sendFailure(res, answer, { close: !skipped.complete || options.isStopping() });
  }

  /** A request whose body means nothing (GET, DELETE): read and dropped, as a refusal's is. */
  async function skipBody(req: IncomingMessage): Promise<void> {
    if (!(await readRequestBody(req, options.maxBodyBytes, false)).complete) throw tooLarge();
  }

  const handlers: Record<string, (req: IncomingMessage, res: ServerResponse, match: RouteMatch) => Promise<void>> = {
    async 'POST /plants'(req, res) {
      const read = await readRequestBody(req, options.maxBodyBytes);
      if (!read.complete) throw tooLarge();
      const plant = await addPlant(store, newPlantOfBody(read.bytes));
      sendJson(res, 200, toPlant(plant), {}, close());
    },
    async 'GET /plants'(req, res) {
      const query = listQuery(req.url ?? '');
      await skipBody(req);
      const page = await store.list(query);
      // Plants with their ids, which JSON.stringify cannot write exactly: each as its canonical line.
      sendJsonText(res, 200, `[${page.map(encodePlant).join(',')}]`, close());
    },
    async 'GET /plants/{id}'(req, res, match) {
      const id = plantId(match.id);
      await skipBody(req);
      sendJsonText(res, 200, encodePlant(await getPlant(store, id)), close());
    },
    async 'DELETE /plants/{id}'(req, res, match) {
      const id = plantId(match.id);
      await skipBody(req);
      await deletePlant(store, id);
      sendNoContent(res, close());
    },
  };

  return async function handle(req, res) {
    try {
      const early = refusalOnHeaders(req, options.isAuthorized);
      if (early !== undefined) return await refuseEarly(req, res, early);
      const match = matchRoute(req.url ?? '') as RouteMatch;
      await (handlers[`${req.method} ${match.route}`] as (typeof handlers)[string])(req, res, match);
    } catch (error) {
      if (error instanceof ClientGone) return;
      const { failure: answer, expected } = failureFor(error);
      // Reported even when the client has gone: a store failure matters whoever was waiting for it.
      if (!expected) options.onUnexpectedError(error);
      // Over the limit, the rest of the body is still coming: answer, then close rather than read it.
      const closing = answer.status === 413 || options.isStopping();
      if (res.headersSent) res.destroy();
      else sendFailure(res, answer, { close: closing });
    }
  };
}

/** The refusal a request earns on its request line and headers alone, if any. */
export function refusalOnHeaders(
  req: IncomingMessage,
  isAuthorized: (authorization: string | undefined) => boolean,
): Failure | undefined {
  // Node keeps the first of two; a proxy in front may check the other. Which one counts is not
  // for us to guess.
  if ((req.headersDistinct.authorization?.length ?? 0) > 1) {
    return failure(400, 'bad_request', 'the request has more than one Authorization header');
  }
  if (!isAuthorized(req.headers.authorization)) {
    return failure(401, 'unauthorized', 'a valid bearer token is required (Authorization: Bearer <token>)', {
      'www-authenticate': 'Bearer',
    });
  }
  const match = matchRoute(req.url ?? '');
  if (match === undefined) return failure(404, 'not_found', 'no such resource: the service has /plants and /plants/{id}');
  const methods = ROUTE_METHODS[match.route];
  if (!methods.includes(req.method ?? '')) {
    return failure(405, 'method_not_allowed', `${match.route} accepts only ${methods.join(' and ')}`, { allow: methods.join(', ') });
  }
  if (req.method === 'POST' && !isJsonContentType(req.headers['content-type'])) {
    return failure(400, 'unsupported_media_type', 'the request body must be sent as Content-Type: application/json');
  }
  return undefined;
}
