import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { expectDocumentedAnswer, type Answer } from './support/openapi.js';
import { startServer, TOKEN, type RunningServer } from './support/server.js';

/** A POST /plants of plant `id`, whole, on the request line's `version`, with `extra` header lines. */
function post(id: number, version: string, extra = ''): string {
  const body = `{"id": ${id}, "name": "Fern"}`;
  return (
    `POST /plants ${version}\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: ` +
    `application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n${body}`
  );
}

/**
 * The answers on one connection, read as they come: the first `count` whole ones, and whether the server then closed
 * it.
 */
function answersOn(socket: Socket, count: number): Promise<{ answers: Answer[]; closed: Promise<void> }> {
  let received = Buffer.alloc(0);
  const closed = new Promise<void>((resolve) => socket.once('end', resolve));
  return new Promise((resolve, reject) => {
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const answers = parseAnswers(received);
      if (answers.length >= count) resolve({ answers, closed });
    });
    socket.once('end', () => resolve({ answers: parseAnswers(received), closed }));
  });
}

/** The whole answers in `bytes`, each framed by its Content-Length. */
function parseAnswers(bytes: Buffer): Answer[] {
  const answers: Answer[] = [];
  let rest = bytes.toString('latin1');
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return answers;
    const [statusLine, ...fields] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      fields.map((field) => [
        field.slice(0, field.indexOf(':')).toLowerCase(),
        field.slice(field.indexOf(':') + 1).trim(),
      ]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) return answers;
    answers.push({ status: Number(statusLine?.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
}

function opened(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('the HTTP version of a request (RFC 9110 and 9112)', () => {
  const store = new MemoryStore();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(() => server.stop());

  it('serves HTTP/1.1, and keeps the connection for the next request', async () => {
    const socket = await opened(server.port);
    socket.write(post(11, 'HTTP/1.1'));
    socket.write(post(12, 'HTTP/1.1', 'Connection: close\r\n'));
    const { answers, closed } = await answersOn(socket, 2);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await closed;
    expect(store.plants.has(11n) && store.plants.has(12n)).toBe(true);
  });

  it('serves HTTP/1.0 (curl --http1.0, ab), and closes the connection after the answer', async () => {
    const socket = await opened(server.port);
    socket.write(post(10, 'HTTP/1.0'));
    const { answers, closed } = await answersOn(socket, 1);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.status).toBe(200);
    expectDocumentedAnswer(answers[0]!, { method: 'POST', path: '/plants' });
    expect(JSON.parse(answers[0]!.body)).toEqual({ name: 'Fern' });
    expect(answers[0]?.headers.connection).toBe('close');
    // The server ends the connection: a 1.0 client reads the answer to the end of the stream.
    await closed;
    expect(store.plants.has(10n)).toBe(true);
  });

  it('keeps an HTTP/1.0 connection that asks for keep-alive open for the next request, as node does', async () => {
    const socket = await opened(server.port);
    socket.write(post(20, 'HTTP/1.0', 'Connection: keep-alive\r\n'));
    const first = await answersOn(socket, 1);
    expect(first.answers[0]?.status).toBe(200);
    expect(first.answers[0]?.headers.connection).toBe('keep-alive');
    socket.removeAllListeners('data');
    socket.write(post(21, 'HTTP/1.0'));
    const second = await answersOn(socket, 1);
    expect(second.answers[0]?.status).toBe(200);
    await second.closed;
    expect(store.plants.has(20n) && store.plants.has(21n)).toBe(true);
  });

  it.each([
    ['HTTP/2.0', post(30, 'HTTP/2.0')],
    ['HTTP/0.9', post(31, 'HTTP/0.9')],
    ['HTTP/0.9 without a version', 'GET /plants\r\n\r\n'],
  ])('answers %s with 505 and an Error body, stores nothing, and closes the connection', async (_version, request) => {
    const socket = await opened(server.port);
    socket.write(request);
    const { answers, closed } = await answersOn(socket, 1);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.status).toBe(505);
    expectDocumentedAnswer(answers[0]!, { method: 'POST', path: '/plants' });
    expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: ERROR_NUMBERS.http_version_not_supported });
    await closed;
    expect(store.plants.has(30n) || store.plants.has(31n)).toBe(false);
  });

  it.each([['HTTP/3.0'], ['HTTP/1.2'], ['HTTP/2']])(
    'answers %s, which node:http cannot parse, with 400 and an Error body',
    async (version) => {
      const socket = await opened(server.port);
      socket.write(post(40, version));
      const { answers, closed } = await answersOn(socket, 1);
      expect(answers[0]?.status).toBe(400);
      expectDocumentedAnswer(answers[0]!, { method: 'POST', path: '/plants' });
      expect(JSON.parse(answers[0]!.body)).toMatchObject({ error: ERROR_NUMBERS.bad_request });
      await closed;
      expect(store.plants.has(40n)).toBe(false);
    },
  );
});
