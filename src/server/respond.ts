import type { ServerResponse } from 'node:http';
import { errorBody, type Failure } from './failures.js';
import { requestIdHeader } from './request-id.js';

/** Headers every answer carries: JSON that no cache keeps and no browser sniffs as something else. */
export const COMMON_HEADERS = {
  'content-type': 'application/json',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

export interface AnswerOptions {
  /** Close the connection after this answer (e.g. the rest of an oversized body is still coming). */
  close?: boolean;
}

/** Writes one complete JSON answer. Does nothing when the connection is gone or an answer was sent. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
  options: AnswerOptions = {},
): void {
  // A Plant or an Error: strings and an int32, which the native writer puts exactly.
  sendJsonText(res, status, JSON.stringify(body), options, headers);
}

/** Writes an answer whose JSON is written already (plants with their ids: core/plant-json.ts). */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  options: AnswerOptions = {},
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...requestIdHeader(res),
    ...headers,
    'content-length': String(Buffer.byteLength(text)),
    ...(options.close ? { connection: 'close' } : {}),
  });
  res.end(text);
}

/** A 204: done, nothing to say. */
export function sendNoContent(res: ServerResponse, options: AnswerOptions = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(204, {
    'cache-control': 'no-store',
    ...requestIdHeader(res),
    ...(options.close ? { connection: 'close' } : {}),
  });
  res.end();
}

export function sendFailure(res: ServerResponse, answer: Failure, options: AnswerOptions = {}): void {
  sendJson(res, answer.status, errorBody(answer), answer.headers, options);
}
