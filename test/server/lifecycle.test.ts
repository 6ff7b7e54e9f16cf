import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import type { NewPlant } from '../../src/core/schemas.js';
import type { AddOutcome } from '../../src/core/store.js';
import { createPlantServer } from '../../src/server/app.js';
import { isStopping, listen, stopServer } from '../../src/server/lifecycle.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { expectDocumentedAnswer } from './support/openapi.js';
import { TOKEN } from './support/server.js';
import { DelegatingStore } from '../helpers/stores.js';

/** A store whose single write waits for the test to let it through. */
class HeldStore extends DelegatingStore {
  private readonly memory = new MemoryStore();
  release: () => void = () => undefined;
  // Declared before `entered`, whose initializer sets it: class fields initialise in order.
  private signalEntered: () => void = () => undefined;
  readonly entered = new Promise<void>((resolve) => (this.signalEntered = resolve));

  override async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    this.signalEntered();
    await new Promise<void>((resolve) => (this.release = resolve));
    return this.memory.addAll(plants);
  }
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', () => resolve(received));
  });
}

const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** The first whole answer `socket` receives (its Content-Length body read); the rest stays for the next call. */
function answers(socket: Socket): () => Promise<string> {
  let buffered = '';
  let waiting: (() => void) | undefined;
  let closed = false;
  socket.on('data', (chunk) => {
    buffered += chunk.toString('latin1');
    waiting?.();
  });
  socket.on('close', () => {
    closed = true;
    waiting?.();
  });
  return async () => {
    for (;;) {
      const end = buffered.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(buffered.slice(0, end))?.[1] ?? 0);
      if (end !== -1 && buffered.length >= end + 4 + length) {
        const answer = buffered.slice(0, end + 4 + length);
        buffered = buffered.slice(end + 4 + length);
        return answer;
      }
      if (closed) return buffered;
      await new Promise<void>((resolve) => (waiting = resolve));
    }
  };
}

function postPlant(id: number): string {
  const body = `{"id": ${id}, "name": "plant ${id}"}`;
  const headers =
    `Host: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ` +
    `${body.length}`;
  return `POST /plants HTTP/1.1\r\n${headers}\r\n\r\n${body}`;
}

describe('listen and stopServer', () => {
  it('listens on the real port when 0 is asked, and reports a URL', async () => {
    const server = createPlantServer({ store: new MemoryStore(), tokens: [TOKEN] });
    const address = await listen(server, 0, '127.0.0.1');
    expect(address.port).toBeGreaterThan(0);
    expect(address.url).toBe(`http://127.0.0.1:${address.port}`);
    await expect(
      listen(createPlantServer({ store: new MemoryStore(), tokens: [TOKEN] }), address.port, '127.0.0.1'),
    ).rejects.toThrow(/EADDRINUSE/);
    await stopServer(server);
  });

  it('refuses to build a server without a token', () => {
    expect(() => createPlantServer({ store: new MemoryStore(), tokens: [] })).toThrow(/at least one token/);
    expect(() => createPlantServer({ store: new MemoryStore(), tokens: [''] })).toThrow(/non-empty/);
  });

  it('lets a request in flight finish, closes idle connections, and then resolves', async () => {
    const store = new HeldStore();
    const server = createPlantServer({ store, tokens: [TOKEN] });
    const { url, port } = await listen(server, 0, '127.0.0.1');
    const idle = await openSocket(port);
    const idleClosed = readUntilClosed(idle);
    const inFlight = request(`${url}/plants`, { method: 'POST', headers, body: '{"id": 1, "name": "Late"}' });
    await store.entered;

    let stopped = false;
    const stopping = stopServer(server).then(() => (stopped = true));
    expect(isStopping(server)).toBe(true);
    expect(await idleClosed).toBe('');
    await expect(openSocket(port)).rejects.toThrow(/ECONNREFUSED/);
    expect(stopped).toBe(false);

    store.release();
    const response = await inFlight;
    const answer = { status: response.statusCode, headers: response.headers, body: await response.body.text() };
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    expectDocumentedAnswer(answer, { method: 'POST', path: '/plants' });
    await stopping;
    expect(stopped).toBe(true);
  });

  it('answers a request sent on a kept-alive connection just as it stops, with Connection: close', async () => {
    const store = new MemoryStore();
    const server = createPlantServer({ store, tokens: [TOKEN] });
    const { port } = await listen(server, 0, '127.0.0.1');
    const socket = await openSocket(port);
    socket.on('error', () => undefined);
    const next = answers(socket);
    socket.write(postPlant(1));
    expect(await next()).toMatch(/^HTTP\/1\.1 200 .*\r\nconnection: keep-alive\r\n/is);
    // Sent (it is in the server's socket, unread) as the server begins to stop, in the same turn:
    // an import's next request on a connection whose answer just came.
    socket.write(postPlant(2));
    const stopping = stopServer(server);
    const answer = await next();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    await stopping;
    expect(await store.get(2n)).toEqual({ id: 2n, name: 'plant 2' });
  });

  it('answers the first request of a connection made just before it stops', async () => {
    const store = new MemoryStore();
    const server = createPlantServer({ store, tokens: [TOKEN] });
    const { port } = await listen(server, 0, '127.0.0.1');
    const accepted = new Promise((resolve) => server.once('connection', resolve));
    const socket = await openSocket(port);
    socket.on('error', () => undefined);
    await accepted;
    const next = answers(socket);
    socket.write(postPlant(3));
    const stopping = stopServer(server);
    expect(await next()).toMatch(/^HTTP\/1\.1 200 .*\r\nconnection: close\r\n/is);
    await stopping;
    expect(await store.get(3n)).toEqual({ id: 3n, name: 'plant 3' });
  });

  it('cuts connections still open after the grace period', async () => {
    const server = createPlantServer({ store: new MemoryStore(), tokens: [TOKEN] });
    const { port } = await listen(server, 0, '127.0.0.1');
    const slow = await openSocket(port);
    const closed = readUntilClosed(slow);
    slow.write('POST /plants HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await stopServer(server, { graceMs: 200 });
    await closed;
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

/** A server that waits 300 ms for headers and 600 ms for a whole request. */
async function impatientServer() {
  const server = createPlantServer({
    store: new MemoryStore(),
    tokens: [TOKEN],
    limits: { headersTimeoutMs: 300, requestTimeoutMs: 600 },
  });
  const { port } = await listen(server, 0, '127.0.0.1');
  return { server, port };
}

describe('timeouts against slow clients', () => {
  it('answers 408 with an Error body to a client whose headers never finish', async () => {
    const { server, port } = await impatientServer();
    try {
      const slow = await openSocket(port);
      const received = readUntilClosed(slow);
      slow.write('POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ');
      const started = Date.now();
      const answer = await received;
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      // Names both limits: node does not say which one fired.
      expect(answer).toContain(
        `{"error":${ERROR_NUMBERS.request_timeout},"message":"the request was not received in time: its ` +
          'headers must come within 0.3 seconds, all of it within 0.6"}',
      );
    } finally {
      await stopServer(server, { graceMs: 100 });
    }
  });

  it('does not let a body that trickles in hold the server past the request timeout', async () => {
    const { server, port } = await impatientServer();
    try {
      const slow = await openSocket(port);
      const received = readUntilClosed(slow);
      slow.write(
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: ` +
          'application/json\r\nContent-Length: 100\r\n\r\n{',
      );
      const trickle = setInterval(() => slow.write(' '), 100);
      const started = Date.now();
      const answer = await received;
      clearInterval(trickle);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await stopServer(server, { graceMs: 100 });
    }
  });
});
