import type { Agent, ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { connectFailure, exchangeFailure } from './transport-failures.js';
import { TransportError, type Method, type RawAnswer } from './transport.js';

/** Answers bigger than this are not a Plant, an Error or a page: stop reading rather than fill memory. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** What every exchange of a transport shares. `inFlight`: how to end each request under way. */
export interface Exchanges {
  request: typeof httpRequest;
  agent: Agent;
  target: { protocol: string; hostname: string; port: string; prefix: string };
  headers: { get: Record<string, string>; post: Record<string, string> };
  inFlight: Map<ClientRequest, (why: 'deadline' | 'stop') => void>;
  stop: AbortSignal | undefined;
}

/** A request: `extra` headers add to (or replace) those of every request. */
export interface Outgoing {
  method: Method;
  path: string;
  body: string | undefined;
  extra: Readonly<Record<string, string>> | undefined;
}

/** A request reset on a reused connection before any answer: `failure` is what it is otherwise. */
export class StaleConnection extends Error {
  constructor(readonly failure: TransportError) {
    super('the kept-alive connection was closed as it was reused');
  }
}

/**
 * One request and its answer on node:http, within `within` ms. It fails with a TransportError
 * (a StaleConnection where the service closed a reused connection before answering): sent, once a
 * connection was made for it or it took one of the pool's.
 */
export function exchange(on: Exchanges, { method, path, body, extra }: Outgoing, within: number): Promise<RawAnswer> {
  return new Promise<RawAnswer>((resolve, reject) => {
    const { target } = on;
    const length = body === undefined ? {} : { 'content-length': Buffer.byteLength(body) };
    const outgoing = on.request({
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: `${target.prefix}${path}`,
      method,
      agent: on.agent,
      headers: { ...(body === undefined ? on.headers.get : on.headers.post), ...extra, ...length },
    });
    let connected = false;
    let answered = false;
    // The reason a request is ended with is what it fails with, whatever node:http then reports.
    let reason: TransportError | undefined;
    const end = (why: 'deadline' | 'stop') => {
      reason ??= why === 'stop' ? stopped(connected) : timedOut(connected);
      outgoing.destroy(reason);
    };
    on.inFlight.set(outgoing, end);
    const deadline = setTimeout(() => end('deadline'), within);
    const settle = () => {
      clearTimeout(deadline);
      on.inFlight.delete(outgoing);
    };
    const fail = (error: unknown) => {
      settle();
      if (reason !== undefined) return void reject(reason);
      const failure = connected ? exchangeFailure(error) : connectFailure(error);
      const stale = !answered && outgoing.reusedSocket && failure.code === 'reset_before_answer';
      reject(stale ? new StaleConnection(failure) : failure);
    };
    outgoing.on('socket', (socket: Socket) => {
      if (outgoing.reusedSocket) connected = true;
      // Made for it: connected once TCP is (TLS: once its handshake is done, before which nothing
      // is sent); one that failed to connect (EMFILE: it is destroyed already) never is.
      else if ('encrypted' in socket) socket.once('secureConnect', () => (connected = true));
      else if (socket.connecting) socket.once('connect', () => (connected = true));
      else connected = !socket.destroyed;
    });
    outgoing.on('response', (response: IncomingMessage) => {
      answered = true;
      const status = response.statusCode ?? 0;
      readAnswerBody(response, status).then((text) => {
        settle();
        resolve({ status, text, ...namedHeaders(response) });
      }, fail);
    });
    outgoing.on('error', fail);
    if (on.stop?.aborted === true) end('stop');
    else outgoing.end(body);
  });
}

function stopped(sent: boolean): TransportError {
  return new TransportError('aborted', sent, sent ? 'stopped waiting for the answer' : 'stopped before it was sent');
}

function timedOut(sent: boolean): TransportError {
  if (sent) return new TransportError('answer_timeout', true, 'no whole answer in time');
  return new TransportError('connect_timeout', false, 'no connection in time');
}

/** The headers the client reads, where the answer has them. */
function namedHeaders(response: IncomingMessage): Omit<RawAnswer, 'status' | 'text'> {
  const { location, etag } = response.headers;
  const retryAfter = response.headers['retry-after'];
  const outcome = response.headers['plants-outcome'];
  const requestId = response.headers['x-request-id'];
  return {
    ...(retryAfter === undefined ? {} : { retryAfter }),
    ...(location === undefined ? {} : { location }),
    ...(etag === undefined ? {} : { etag }),
    ...(typeof outcome === 'string' ? { outcome } : {}),
    ...(typeof requestId === 'string' ? { requestId } : {}),
  };
}

/**
 * An answer's body as text, read up to MAX_ANSWER_BYTES. Events, not `for await`: an import reads
 * thousands of answers a second, and an async iterator per answer costs the client CPU that a
 * server on the same machine then lacks.
 */
function readAnswerBody(body: Readable, status: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        body.destroy();
        // Whatever the request did, its answer cannot be read.
        const message = `the service answered HTTP ${status} with a body over ${MAX_ANSWER_BYTES} bytes`;
        reject(new TransportError('answer_too_large', true, message));
      } else chunks.push(chunk);
    });
    body.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    body.on('error', reject);
  });
}
