import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { stringifyJson } from '../core/json.js';
import { errorBody, failure, type Failure } from './failures.js';
import { COMMON_HEADERS } from './respond.js';

/** How long a socket we answered on our own may linger for the client to read the answer. */
const LINGER_MS = 2_000;

/**
 * Answers on a bare socket, for the cases node:http hands us no ServerResponse: a request it could
 * not parse, one too slow, and CONNECT. Node's own defaults answer without a body, or drop the
 * connection (CONNECT); ours is a whole HTTP answer with an Error body, then the connection closes.
 */
function answerOnSocket(socket: Duplex, answer: Failure): void {
  const body = stringifyJson(errorBody(answer));
  const headers: Record<string, string> = {
    ...COMMON_HEADERS,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
    ...answer.headers,
  };
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}`]
    .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`))
    .join('\r\n');
  // end(), not destroy(): a reset could discard the answer before the client has read it.
  socket.end(`${head}\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** The answer for an HTTP-level error node:http reports through 'clientError'. */
function clientErrorAnswer(error: NodeJS.ErrnoException, timeouts: RequestTimeouts): Failure {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return failure(431, 'headers_too_large', 'the request headers are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      // Node says which of the two fired no more than that one did.
      return failure(
        408,
        'request_timeout',
        `the request was not received in time: its headers must come within ${timeouts.headersTimeoutMs / 1000}` +
          ` seconds, all of it within ${timeouts.requestTimeoutMs / 1000}`,
      );
    default:
      return failure(400, 'bad_request', 'the request is not valid HTTP/1.1');
  }
}

/**
 * The 'clientError' listener: answers on the socket when no answer has begun on it, else drops it
 * (a half-written answer cannot be repaired). A connection the client reset needs nothing.
 */
export interface RequestTimeouts {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
}

export function onClientError(timeouts: RequestTimeouts, answered: (answer: Failure) => void) {
  return (error: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } | null }): void => {
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = clientErrorAnswer(error, timeouts);
    answerOnSocket(socket, answer);
    answered(answer);
  };
}

/** The 'connect' listener (CONNECT method): this is no proxy; refuse as any other request. */
export function onConnect(
  refusal: (req: IncomingMessage) => Failure,
  answered: (req: IncomingMessage, answer: Failure) => void,
) {
  return (req: IncomingMessage, socket: Duplex): void => {
    const answer = refusal(req);
    answerOnSocket(socket, answer);
    answered(req, answer);
  };
}
