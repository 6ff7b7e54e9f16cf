import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import type { AddOutcome } from '../../src/core/store.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { StoreOutage } from '../../src/server/store-outage.js';
import { PlantsError } from '../../src/core/errors.js';
import type { LogFormat } from '../../src/server/log-line.js';
import { DelegatingStore, storeWith } from '../helpers/stores.js';
import { waitFor } from '../helpers/wait-for.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { startServer, TOKEN, type RunningServer } from './support/server.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(['text', 'json'] as LogFormat[])('request ids, and the request log in %s', (logFormat) => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(new MemoryStore(), { logFormat });
  });
  afterAll(() => server.stop());

  /** The log line of the last request, with its request id. */
  async function lastLine(): Promise<string> {
    // The line is written as the connection's answer closes, just after the client has it.
    await new Promise((logged) => setTimeout(logged, 20));
    return server.lines.at(-1) ?? '';
  }

  it("takes a client's short printable X-Request-Id, echoes it, and logs it", async () => {
    const answer = await server.send({
      headers: { 'x-request-id': 'lb-7f3a.01:Z_9' },
      body: '{"id": 1, "name": "Fern"}',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers['x-request-id']).toBe('lb-7f3a.01:Z_9');
    const line = await lastLine();
    if (logFormat === 'json')
      expect(JSON.parse(line)).toMatchObject({
        level: 'info',
        method: 'POST',
        route: '/plants',
        status: 200,
        requestId: 'lb-7f3a.01:Z_9',
        durationMs: expect.any(Number),
        time: expect.stringMatching(/Z$/),
        message: 'POST /plants 200',
      });
    else expect(line).toMatch(/^\S+Z POST \/plants 200 \d+ms request-id=lb-7f3a\.01:Z_9$/);
  });

  it.each([
    ['none', undefined],
    ['an empty one', ''],
    ['one over 128 characters', 'a'.repeat(129)],
    ['one with a space', 'a b'],
    ['one with a tab', 'a\tb'],
    ['one with a non-ASCII letter', 'caf\u00e9'],
    ['one with a newline, encoded', 'a%0Ab'],
    ['one holding the token', `x${TOKEN}x`],
  ])('makes its own id (a UUID) for %s, on every answer, refusals too', async (_what, given) => {
    const headers = given === undefined ? {} : { 'x-request-id': given };
    for (const anonymous of [false, true]) {
      const answer = await server.send({ headers, anonymous, body: '{"id": 2, "name": "Fern"}' });
      const id = answer.headers['x-request-id'];
      expect(id).toMatch(UUID);
      expect(await lastLine()).toContain(id as string);
    }
  });

  it('writes no token, query or raw path into any line', async () => {
    const before = server.lines.length;
    await server.send({ path: `/plants?secret=s3cr3t&token=${TOKEN}`, body: '{"id": 3, "name": "Fern"}' });
    await server.send({ path: `/${TOKEN}/plants`, body: '{"id": 4, "name": "Fern"}' });
    await server.send({ method: 'GET', path: `/plants/${TOKEN}` });
    await server.send({ anonymous: true, headers: { authorization: `Bearer ${TOKEN}x`, 'x-request-id': TOKEN } });
    await lastLine();
    const lines = server.lines.slice(before);
    expect(lines).toHaveLength(4);
    if (logFormat === 'json')
      for (const line of lines)
        expect(Object.keys(JSON.parse(line)).sort()).toEqual([
          'durationMs',
          'level',
          'message',
          'method',
          'requestId',
          'route',
          'status',
          'time',
        ]);
    const all = lines.join('\n');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain('s3cr3t');
    expect(all).not.toContain('?');
  });
});

/** A store whose first write waits for the test: the writes sent meanwhile go in one batch after it. */
class FirstWriteHeld extends DelegatingStore {
  entered = false;
  release: () => void = () => undefined;
  private held = false;
  override async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    if (!this.held) {
      this.held = true;
      this.entered = true;
      await new Promise<void>((resolve) => (this.release = resolve));
    }
    return super.addAll(plants);
  }
}

describe.each(['text', 'json'] as LogFormat[])('the batch size in the request log (%s)', (logFormat) => {
  it('says the size of the batch each write went in, and none for a read', async () => {
    const inner = new FirstWriteHeld();
    // Counts the writes that reached the batching store: the test releases the first once all are there.
    let arrived = 0;
    const batching = new BatchingStore(inner);
    const counting = Object.assign(new DelegatingStore(batching), {
      addAll: (plants: readonly NewPlant[]) => ((arrived += 1), batching.addAll(plants)),
    });
    const server = await startServer(counting, { logFormat });
    try {
      const first = server.send({ headers: { 'x-request-id': 'first' }, body: '{"id": 1, "name": "Fern"}' });
      await waitFor('the first write to reach the store', () => inner.entered);
      const others = [2, 3, 4].map((id) =>
        server.send({ headers: { 'x-request-id': `other-${id}` }, body: `{"id": ${id}, "name": "Fern"}` }),
      );
      // The three wait in the batching store for the first write to end.
      await waitFor('the other writes to reach the batching store', () => arrived === 4);
      inner.release();
      expect((await Promise.all([first, ...others])).map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      await server.send({ method: 'GET', path: '/plants/1', headers: { 'x-request-id': 'read' } });
      await new Promise((logged) => setTimeout(logged, 20));
      const sizes = Object.fromEntries(
        server.lines.map((line) => {
          if (logFormat === 'json') {
            const entry = JSON.parse(line) as { requestId: string; batchSize?: number };
            return [entry.requestId, entry.batchSize];
          }
          const [, id, size] = /request-id=(\S+)(?: batch=(\d+))?$/.exec(line) ?? [];
          return [id, size === undefined ? undefined : Number(size)];
        }),
      );
      expect(sizes).toEqual({ first: 1, 'other-2': 3, 'other-3': 3, 'other-4': 3, read: undefined });
    } finally {
      await server.stop();
    }
  });
});

describe("the request id of a failure that is the server's", () => {
  it('is handed with the failure, for its line to name the request', async () => {
    const failures: [unknown, string | undefined][] = [];
    const store = storeWith({ addAll: () => Promise.reject(new TypeError('kaboom')) });
    const server = await startServer(store, {
      onUnexpectedError: (error, requestId) => failures.push([error, requestId]),
    });
    try {
      const answer = await server.send({ headers: { 'x-request-id': 'failing-1' }, body: '{"id": 1, "name": "Fern"}' });
      expect(answer.status).toBe(500);
      expect(answer.headers['x-request-id']).toBe('failing-1');
      expect(failures.map(([, id]) => id)).toEqual(['failing-1']);
    } finally {
      await server.stop();
    }
  });

  it.each(['text', 'json'] as LogFormat[])(
    'is in the line the server writes of it without a callback (%s)',
    async (logFormat) => {
      const store = storeWith({ addAll: () => Promise.reject(new TypeError('kaboom')) });
      const server = await startServer(store, { logFormat, onUnexpectedError: undefined as never });
      try {
        await server.send({ headers: { 'x-request-id': 'failing-2' }, body: '{"id": 1, "name": "Fern"}' });
        const line = server.lines.find((each) => each.includes('kaboom')) ?? '';
        if (logFormat === 'json')
          expect(JSON.parse(line)).toMatchObject({
            level: 'error',
            requestId: 'failing-2',
            message: expect.stringMatching(/^internal error: TypeError: kaboom/),
          });
        else expect(line).toMatch(/internal error: TypeError: kaboom.* \(request-id=failing-2\)$/);
      } finally {
        await server.stop();
      }
    },
  );

  it('is the one StoreOutage reports with the first failure of an outage', () => {
    const reported: [unknown, string | undefined][] = [];
    const outage = new StoreOutage(
      (error, requestId) => reported.push([error, requestId]),
      () => undefined,
      async () => undefined,
    );
    const full = new PlantsError('store_io', 'no space left on device (ENOSPC)');
    outage.failed(full, 'first');
    outage.failed(full, 'second');
    expect(reported).toEqual([[full, 'first']]);
  });
});
