import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/**
 * What a client's X-Request-Id may be to be taken as the request's id: a short token, nothing a log line could be split
 * or coloured by.
 */
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of a request: the client's `X-Request-Id` when it is a short printable token (a proxy in
 * front, or the client, then finds its own id in our log), else a new UUID. `isSecret` refuses one
 * that holds a token: a careless client must not get a token into the log through it.
 */
export function requestIdOf(header: string | string[] | undefined, isSecret: (id: string) => boolean): string {
  if (typeof header === 'string' && ACCEPTED.test(header) && !isSecret(header)) return header;
  return randomUUID();
}

/**
 * Each answer's request id, for respond.ts to write with its other headers: res.setHeader would
 * send every answer down node's slower path that merges set headers into writeHead's.
 */
const ids = new WeakMap<ServerResponse, string>();

export function setRequestId(res: ServerResponse, id: string): void {
  ids.set(res, id);
}

/** The id of the request an answer is for, if it has one. */
export function requestIdOfAnswer(res: ServerResponse): string | undefined {
  return ids.get(res);
}

/** The X-Request-Id header of an answer, if its request has an id (the admin listener's have none). */
export function requestIdHeader(res: ServerResponse): { 'x-request-id': string } | undefined {
  const id = ids.get(res);
  return id === undefined ? undefined : { 'x-request-id': id };
}
