import type { IncomingMessage, ServerResponse } from 'node:http';
import { printable } from '../core/printable.js';
import { PLANT_ROUTES } from './plant-routes.js';

/**
 * Writes one line per request once it is over: ISO time, method, route, status, duration. The
 * route, not the path: a careless client may put a secret anywhere in a path (`/TOKEN/plants`,
 * `/plants;token=…`, `/plants%3Ftoken=…`), so only a path that is a route of ours is named, and
 * never its query; every header is left out, the token above all.
 */
export function logRequest(req: IncomingMessage, res: ServerResponse, log: (line: string) => void): void {
  const started = performance.now();
  const at = new Date().toISOString();
  res.once('close', () => {
    const milliseconds = Math.round(performance.now() - started);
    const status = res.headersSent ? String(res.statusCode) : '-';
    // 'close' without 'finish': the connection went before the whole answer was written.
    const note = res.writableFinished ? '' : ' (connection closed before the answer was complete)';
    log(requestLine(at, req, status, milliseconds) + note);
  });
}

/** The line for an answer written on the bare socket (see raw-answers.ts), with no request or a CONNECT. */
export function logRawAnswer(log: (line: string) => void, status: number, req?: IncomingMessage): void {
  log(requestLine(new Date().toISOString(), req, String(status), 0));
}

function requestLine(at: string, req: IncomingMessage | undefined, status: string, milliseconds: number): string {
  const method = printable(req?.method ?? '-', 20);
  // The route a request's target names, or `(other path)`: never the path itself.
  const route = req === undefined ? '-' : PLANT_ROUTES.nameOf(req.url ?? '');
  return `${at} ${method} ${route} ${status} ${milliseconds}ms`;
}
