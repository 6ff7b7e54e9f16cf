import type { IncomingMessage, ServerResponse } from 'node:http';
import { addPlant, toPlant } from '../core/create.js';
import type { PlantStore } from '../core/store.js';
import { ClientGone, isJsonContentType, newPlantOfBody, readRequestBody } from './body.js';
import { failure, failureFor, rejection, type Failure } from './failures.js';
import { sendFailure, sendJson } from './respond.js';

export interface RequestHandlerOptions {
  store: PlantStore;
  isAuthorized: (authorization: string | undefined) => boolean;
  maxBodyBytes: number;
  /** True once the server is stopping: answers then close their connection. */
  isStopping: () => boolean;
  /** Told about failures that are the server's fault (store trouble, bugs), with their cause. */
  onUnexpectedError: (error: unknown) => void;
}

const ROUTE = '/plants';

/**
 * The one route, in the order that leaks least: the token first (a stranger learns nothing, not even
 * which paths exist), then path and method, then the body. Every outcome is an answer with a body:
 * nothing a client sends makes this throw or leaves the connection without an answer.
 */
export function createRequestHandler(options: RequestHandlerOptions): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const tooLarge = () => rejection(413, 'payload_too_large', `the request body is over the limit of ${options.maxBodyBytes} bytes`);

  /** Refuses a request on its headers; the body is skipped first so the connection can be reused. */
  async function refuseEarly(req: IncomingMessage, res: ServerResponse, answer: Failure): Promise<void> {
    const skipped = await readRequestBody(req, options.maxBodyBytes, false);
    sendFailure(res, answer, { close: !skipped.complete || options.isStopping() });
  }

  async function createFromBody(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const read = await readRequestBody(req, options.maxBodyBytes);
    if (!read.complete) throw tooLarge();
    const plant = await addPlant(options.store, newPlantOfBody(read.bytes));
    sendJson(res, 200, toPlant(plant), {}, { close: options.isStopping() });
  }

  return async function handle(req, res) {
    try {
      const early = refusalOnHeaders(req, options.isAuthorized);
      if (early !== undefined) return await refuseEarly(req, res, early);
      await createFromBody(req, res);
    } catch (error) {
      if (error instanceof ClientGone) return;
      const { failure: answer, expected } = failureFor(error);
      // Reported even when the client has gone: a store failure matters whoever was waiting for it.
      if (!expected) options.onUnexpectedError(error);
      // Over the limit, the rest of the body is still coming: answer, then close rather than read it.
      const close = answer.status === 413 || options.isStopping();
      if (res.headersSent) res.destroy();
      else sendFailure(res, answer, { close });
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
  const path = (req.url ?? '').split('?', 1)[0];
  if (path !== ROUTE) return failure(404, 'not_found', `no such resource: the service has only ${ROUTE}`);
  if (req.method !== 'POST') {
    return failure(405, 'method_not_allowed', `${ROUTE} accepts only POST`, { allow: 'POST' });
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return failure(400, 'unsupported_media_type', 'the request body must be sent as Content-Type: application/json');
  }
  return undefined;
}
