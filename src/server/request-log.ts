import type { IncomingMessage, ServerResponse } from 'node:http';
import { printable } from '../core/printable.js';
import { requestLine, type LogFormat } from './log-line.js';
import type { RequestObserver } from './observer.js';

export interface RequestWatch {
  /** Names a request by its route (RouteTable.nameOf). */
  table: { nameOf(target: string): string };
  format: LogFormat;
  log?: (line: string) => void;
  observer?: RequestObserver;
}

/**
 * Once a request is over: one log line (time, method, route, status, duration, request id) and
 * the observer told. The route, not the path: a careless client may put a secret anywhere in a
 * path (`/TOKEN/plants`, `/plants;token=…`, `/plants%3Ftoken=…`), so only a path that is a route
 * of ours is named, and never its query; every header is left out, the token above all.
 */
/** What a request's line says that only its handling learns: the size of the batch its write went in. */
export interface RequestNotes {
  batchSize?: number;
}

export function watchRequest(
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  watch: RequestWatch,
  notes?: RequestNotes,
): void {
  const { log, observer } = watch;
  const started = performance.now();
  const at = log === undefined ? '' : new Date().toISOString();
  observer?.requestStarted();
  res.once('close', () => {
    const elapsed = performance.now() - started;
    const status = res.headersSent ? res.statusCode : undefined;
    const route = watch.table.nameOf(req.url ?? '');
    // The metrics count a method they do not know as `other`: only the log shows it, made printable.
    observer?.requestEnded(req.method ?? '-', route, status, elapsed / 1000);
    if (log === undefined) return;
    const method = printable(req.method ?? '-', 20);
    // 'close' without 'finish': the connection went before the whole answer was written.
    const note = res.writableFinished ? undefined : 'connection closed before the answer was complete';
    const batchSize = notes?.batchSize;
    log(
      requestLine(watch.format, at, {
        method,
        route,
        status,
        durationMs: Math.round(elapsed),
        requestId,
        ...(batchSize === undefined ? {} : { batchSize }),
        ...(note === undefined ? {} : { note }),
      }),
    );
  });
}

/** The line for an answer written on the bare socket (see raw-answers.ts), with no request or a CONNECT. */
export function logRawAnswer(watch: RequestWatch, status: number, req?: IncomingMessage): void {
  const method = printable(req?.method ?? '-', 20);
  const route = req === undefined ? '-' : watch.table.nameOf(req.url ?? '');
  watch.log?.(requestLine(watch.format, new Date().toISOString(), { method, route, status, durationMs: 0 }));
}
