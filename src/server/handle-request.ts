import type { IncomingMessage, ServerResponse } from 'node:http';
import { ClientGone, mediaTypeOf, readRequestBody } from './body.js';
import { failure, failureFor, type Failure } from './failures.js';
import { sendFailure } from './respond.js';
import type { RouteMatch, RouteTable } from './routes.js';

export interface RequestHandlerOptions<Context> {
  table: RouteTable<Context>;
  /** What each route is handed. */
  context: Context;
  /** The token check; absent on a listener that takes none (the admin port). */
  isAuthorized?: (authorization: string | undefined) => boolean;
  maxBodyBytes: number;
  /** True once the server is stopping: answers then close their connection. */
  isStopping: () => boolean;
  /**
   * Told about failures that are the server's fault (store trouble, bugs), with their cause and the answer they were
   * for.
   */
  onUnexpectedError: (error: unknown, res: ServerResponse) => void;
}

/**
 * Every request, in the order that leaks least: the token first (a stranger learns nothing, not
 * even which paths exist), then path and method, then parameters and body. Every outcome is an
 * answer with a body (but a 204): nothing a client sends makes this throw or leaves the connection
 * without an answer.
 */
export function createRequestHandler<Context>(
  options: RequestHandlerOptions<Context>,
): (req: IncomingMessage, res: ServerResponse, own?: Context) => Promise<void> {
  const { table, context } = options;

  /** Refuses a request on its headers; the body is skipped first so the connection can be reused. */
  async function refuseEarly(req: IncomingMessage, res: ServerResponse, answer: Failure): Promise<void> {
    const skipped = await readRequestBody(req, options.maxBodyBytes, false);
    // A client of another HTTP version cannot be told how to frame its next request on this connection.
    sendFailure(res, answer, { close: !skipped.complete || options.isStopping() || answer.status === 505 });
  }

  /** `own`: this request's context, in place of the listener's. */
  return async function handle(req, res, own) {
    try {
      const match = table.match(req.url ?? '');
      const early = refusalOnHeaders(req, table, match, options.isAuthorized);
      if (early !== undefined) return await refuseEarly(req, res, early);
      const m = match as RouteMatch<Context>;
      await m.route(req.method)?.handle(req, res, m.params, own ?? context);
    } catch (error) {
      if (error instanceof ClientGone) return;
      const { failure: answer, expected } = failureFor(error);
      // Reported even when the client has gone: a store failure matters whoever was waiting for it.
      if (!expected) options.onUnexpectedError(error, res);
      // Over the limit, the rest of the body is still coming: answer, then close rather than read it.
      const closing = answer.status === 413 || options.isStopping();
      if (res.headersSent) res.destroy();
      else sendFailure(res, answer, { close: closing });
    }
  };
}

/** The refusal a request earns on its request line and headers alone, if any. */
export function refusalOnHeaders<Context>(
  req: IncomingMessage,
  table: RouteTable<Context>,
  match: RouteMatch<Context> | undefined,
  isAuthorized?: (authorization: string | undefined) => boolean,
): Failure | undefined {
  // HTTP/1.0 and 1.1 are served (RFC 9112). node:http also hands over HTTP/2.0 and 0.9 request
  // lines, which no client of those versions sends in this syntax: refused as RFC 9110 §15.6.6 has
  // it, before the token (the version says how to read everything after it). Other versions node
  // cannot parse: raw-answers.ts answers them 400.
  if (req.httpVersion !== '1.1' && req.httpVersion !== '1.0') {
    return failure(
      505,
      'http_version_not_supported',
      `HTTP/${req.httpVersion} is not supported: send HTTP/1.1 (or HTTP/1.0)`,
    );
  }
  if (isAuthorized !== undefined) {
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
  }
  if (match === undefined) return failure(404, 'not_found', table.notFoundMessage);
  if (match.route(req.method) === undefined) {
    const { methods } = match;
    return failure(405, 'method_not_allowed', `${match.path} accepts only ${methods.join(' and ')}`, {
      allow: methods.join(', '),
    });
  }
  const accepts = match.route(req.method)?.accepts;
  if (accepts !== undefined && !accepts.includes(mediaTypeOf(req.headers['content-type']))) {
    return failure(
      400,
      'unsupported_media_type',
      `the request body must be sent as Content-Type: ${accepts.join(' or ')}`,
    );
  }
  return undefined;
}
