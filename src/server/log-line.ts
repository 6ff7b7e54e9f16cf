/** How the server's log lines are written: `text` for people, `json` (one object a line) for a log pipeline. */
export type LogFormat = 'text' | 'json';

export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

export type LogLevel = 'info' | 'warn' | 'error';

/** What the log says of one request. Never its path, query or headers: see request-log.ts. */
export interface RequestFields {
  method: string;
  /** The route's template, or `(other path)`; `-` for an answer with no request. */
  route: string;
  /** Undefined when no answer was begun. */
  status: number | undefined;
  durationMs: number;
  requestId?: string;
  /** The size of the batch the request's write went in (see BatchingStore), where it made one. */
  batchSize?: number;
  /** Why the line is unusual: the connection closed before the answer was complete. */
  note?: string;
}

/**
 * One request's line. Text keeps the columns it always had (time, method, route, status, duration),
 * then the request id; JSON names each field.
 */
export function requestLine(format: LogFormat, time: string, fields: RequestFields): string {
  const { method, route, status, durationMs, requestId, batchSize, note } = fields;
  if (format === 'json') {
    const level: LogLevel = status !== undefined && status >= 500 ? 'error' : 'info';
    return JSON.stringify({
      time,
      level,
      message: `${method} ${route} ${status ?? '-'}`,
      method,
      route,
      status: status ?? null,
      durationMs,
      ...(requestId === undefined ? {} : { requestId }),
      ...(batchSize === undefined ? {} : { batchSize }),
      ...(note === undefined ? {} : { note }),
    });
  }
  const id = requestId === undefined ? '' : ` request-id=${requestId}`;
  const batch = batchSize === undefined ? '' : ` batch=${batchSize}`;
  return (
    `${time} ${method} ${route} ${status ?? '-'} ${durationMs}ms${id}${batch}` +
    `${note === undefined ? '' : ` (${note})`}`
  );
}

/**
 * A line that is no request's: text as the server always wrote it (`stamped`: behind the time),
 * JSON with the time and level it has; `requestId` names the request a failure met.
 */
export function messageLine(
  format: LogFormat,
  time: string,
  level: LogLevel,
  message: string,
  stamped = true,
  requestId?: string,
): string {
  if (format === 'json')
    return JSON.stringify({ time, level, message, ...(requestId === undefined ? {} : { requestId }) });
  const id = requestId === undefined ? '' : ` (request-id=${requestId})`;
  return stamped ? `${time} ${message}${id}` : `${message}${id}`;
}
