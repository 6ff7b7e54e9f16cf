import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { OTHER_TOKEN, startServer, TOKEN, type RunningServer } from './support/server.js';

const PLANT = '{"id": 1, "name": "Fern"}';

/** Writes raw bytes on a fresh connection and collects everything until the server closes it. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('refusals before the body: token, path, method, size', () => {
  const store = new MemoryStore();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(store, { limits: { maxBodyBytes: 1024 } });
  });
  afterAll(() => server.stop());

  it.each([
    ['no Authorization header', undefined],
    ['a wrong token', `Bearer wrong-${TOKEN}`],
    ['a prefix of the token', `Bearer ${TOKEN.slice(0, -1)}`],
    ['the token with another scheme', `Basic ${TOKEN}`],
    ['the token alone', TOKEN],
    ['Bearer with no token', 'Bearer '],
  ])('answers 401 with WWW-Authenticate: Bearer for %s, and creates nothing', async (_what, authorization) => {
    const answer = await server.send({
      anonymous: true,
      headers: authorization === undefined ? {} : { authorization },
      body: PLANT,
    });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
    expect(JSON.parse(answer.body)).toMatchObject({ error: ERROR_NUMBERS.unauthorized });
    expect(store.plants.size).toBe(0);
  });

  it.each([
    ['the same token twice', [TOKEN, TOKEN]],
    ['a good token and a bad one', [TOKEN, 'wrong']],
    ['a bad token and a good one', ['wrong', TOKEN]],
  ])(
    'answers 400 with an Error body for two Authorization headers (%s), and creates nothing',
    async (_what, tokens) => {
      const headers = tokens.map((token) => `Authorization: Bearer ${token}\r\n`).join('');
      const answer = await rawExchange(
        server.port,
        `POST /plants HTTP/1.1\r\nHost: x\r\n${headers}Content-Type: application/json\r\nContent-Length: ` +
          '25\r\nConnection: close\r\n\r\n{"id": 300, "name": "a"} ',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain(
        `{"error":${ERROR_NUMBERS.bad_request},"message":"the request has more than one Authorization header"}`,
      );
      expect(store.plants.has(300n)).toBe(false);
    },
  );

  it.each([
    `/${TOKEN}/plants`,
    `/plants;token=${TOKEN}`,
    `/plants%3Ftoken=${TOKEN}`,
    `/plants?token=${TOKEN}`,
    `/plants/${TOKEN}`,
  ])('never writes a path into the log, only the route: %s', async (path) => {
    await server.send({ path, body: PLANT });
    await new Promise((logged) => setTimeout(logged, 50));
    expect(server.lines.join('\n')).not.toContain(TOKEN);
    const logged = path.startsWith('/plants?')
      ? / POST \/plants \d{3} \d+ms request-id=[\w-]+$/
      : path.startsWith('/plants/')
        ? / POST \/plants\/\{id\} 405 \d+ms request-id=[\w-]+$/
        : / POST \(other path\) 404 \d+ms request-id=[\w-]+$/;
    expect(server.lines.at(-1)).toMatch(logged);
  });

  it('authenticates before routing: a stranger learns nothing about paths or methods', async () => {
    expect((await server.send({ anonymous: true, path: '/nope', method: 'GET' })).status).toBe(401);
    expect((await server.send({ anonymous: true, method: 'DELETE' })).status).toBe(401);
  });

  it('accepts every configured token, with the scheme in any case', async () => {
    const first = await server.send({
      anonymous: true,
      headers: { authorization: `bearer ${OTHER_TOKEN}` },
      body: '{"id": 100, "name": "a"}',
    });
    expect(first.status).toBe(200);
    const second = await server.send({
      anonymous: true,
      headers: { authorization: `BEARER ${TOKEN}` },
      body: '{"id": 101, "name": "a"}',
    });
    expect(second.status).toBe(200);
  });

  it.each([['/'], ['/plants/'], ['/plants/1/x'], ['/Plants'], ['/v1/plants']])(
    'answers 404 for the path %s',
    async (path) => {
      const answer = await server.send({ path, body: PLANT });
      expect(answer.status).toBe(404);
      expect(JSON.parse(answer.body)).toMatchObject({ error: ERROR_NUMBERS.not_found });
    },
  );

  it.each([
    ['PUT', '/plants', 'GET, POST'],
    ['DELETE', '/plants', 'GET, POST'],
    ['PATCH', '/plants', 'GET, POST'],
    ['OPTIONS', '/plants', 'GET, POST'],
    ['POST', '/plants/1', 'DELETE, GET, PATCH, PUT'],
    ['OPTIONS', '/plants/1', 'DELETE, GET, PATCH, PUT'],
  ] as const)('answers 405 with Allow for %s %s', async (method, path, allow) => {
    const answer = await server.send({ method, path, ...(method === 'OPTIONS' ? {} : { body: PLANT }) });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(allow);
    expect(JSON.parse(answer.body)).toMatchObject({ error: ERROR_NUMBERS.method_not_allowed });
  });

  it('answers 413 for a body over the limit, whether declared or streamed, and creates nothing', async () => {
    const big = `{"id": 200, "name": "${'a'.repeat(2000)}"}`;
    const declared = await server.send({ body: big });
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    expect(JSON.parse(declared.body)).toMatchObject({ error: ERROR_NUMBERS.payload_too_large });
    const streamed = await server.send({ body: Buffer.alloc(5_000_000, 0x20) });
    expect(streamed.status).toBe(413);
    expect(store.plants.has(200n)).toBe(false);
    // The server is still there for the next request.
    expect((await server.send({ body: '{"id": 201, "name": "a"}' })).status).toBe(200);
  });

  it('answers with an Error body on the socket for what node:http cannot parse, and for CONNECT', async () => {
    const garbage = await rawExchange(server.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage).toContain(`{"error":${ERROR_NUMBERS.bad_request},`);
    const hugeHeaders = await rawExchange(server.port, `POST /plants HTTP/1.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(hugeHeaders).toMatch(/^HTTP\/1\.1 431 /);
    expect(hugeHeaders).toContain(`{"error":${ERROR_NUMBERS.headers_too_large},`);
    const tunnel = await rawExchange(
      server.port,
      `CONNECT example.com:443 HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\n\r\n`,
    );
    expect(tunnel).toMatch(/^HTTP\/1\.1 404 /);
    expect(tunnel).toContain(`{"error":${ERROR_NUMBERS.not_found},`);
    // Each is in the request log, too: a CONNECT's target is no route of ours, and is not named.
    expect(server.lines.slice(-3).map((line) => line.replace(/^\S+ /, ''))).toEqual([
      '- - 400 0ms',
      '- - 431 0ms',
      'CONNECT (other path) 404 0ms',
    ]);
  });

  it('takes a client that leaves mid-body as gone, not as a failure of its own', async () => {
    const errorsBefore = server.errors.length;
    const plantsBefore = store.plants.size;
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.on('connect', resolve));
    socket.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: ` +
        'application/json\r\nContent-Length: 100\r\n\r\n{"id":',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.errors.slice(errorsBefore)).toEqual([]);
    expect(store.plants.size).toBe(plantsBefore);
  });

  it('serves a request without a Host header like any other', async () => {
    const answer = await rawExchange(
      server.port,
      `POST /plants HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: ` +
        'application/json\r\nContent-Length: 25\r\nConnection: close\r\n\r\n{"id": 300, "name": "a"} ',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('logs one line per request with time, method, path, status and duration, never the token or query', async () => {
    const before = server.lines.length;
    await server.send({ path: '/plants?secret=s3cr3t', body: '{"id": 400, "name": "a"}' });
    await server.send({ anonymous: true, headers: { authorization: `Bearer ${TOKEN}x` } });
    const lines = server.lines.slice(before);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z POST \/plants 200 \d+ms request-id=[\w-]+$/);
    expect(lines[1]).toMatch(/ POST \/plants 401 \d+ms request-id=[\w-]+$/);
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).not.toContain('s3cr3t');
  });
});
