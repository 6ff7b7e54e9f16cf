import type { IncomingMessage, ServerResponse } from 'node:http';
import { printable } from '../core/printable.js';

/**
 * Writes one line per request once it is over: ISO time, method, path, status, duration.
 * The query string is left out (it is nobody's business, and a careless client may put a secret
 * there) and so is every header, the token above all.
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
  const path = req === undefined ? '-' : printable((req.url ?? '').split('?', 1)[0] ?? '', 120);
  return `${at} ${method} ${path} ${status} ${milliseconds}ms`;
}
