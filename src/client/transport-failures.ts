import { TransportError, type FailureCode } from './transport.js';

/**
 * What Node's and undici's errors mean in the transport's terms (transport.ts). Only the code of
 * an error is read, and whether a connection had been made for the request: no error of a
 * library's leaves the transport.
 */

/** An error met before a connection was made for the request: nothing was sent. `proxy`: met reaching it. */
export function connectFailure(error: unknown, proxy?: string): TransportError {
  if (error instanceof TransportError) return error;
  const code = codeOf(error);
  const about = { cause: error, ...(proxy === undefined ? {} : { proxy }) };
  const failure = (kind: FailureCode, message: string) => new TransportError(kind, false, message, about);
  switch (code) {
    case 'ECONNREFUSED':
      return failure('connect_refused', 'connection refused');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return failure('unknown_host', 'unknown host');
    case 'EMFILE':
    case 'ENFILE':
      return failure('local_limit', 'no descriptor for a connection');
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return failure('connect_timeout', 'connecting timed out');
    default:
      return failure('connect_failed', described(error, code));
  }
}

/** An error met once a connection was made: the request may have reached the service. */
export function exchangeFailure(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const code = codeOf(error);
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    const message = 'the connection was closed before an answer';
    return new TransportError('reset_before_answer', true, message, { cause: error });
  }
  return new TransportError('exchange_failed', true, described(error, code), { cause: error });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function described(error: unknown, code: string | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  return code === undefined || message.includes(code) ? message : `${message} (${code})`;
}
