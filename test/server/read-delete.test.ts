import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { parseJson, stringifyJson } from '../../src/core/json.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { tempDir } from '../helpers/temp.js';
import { startServer, type RunningServer } from './support/server.js';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

describe('GET /plants, GET and DELETE /plants/{id}: the extensions', () => {
  const store = new MemoryStore();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(store);
    for (const body of [
      `{"id":${MAX},"name":"Max","tag":"tree"}`,
      `{"id":${MIN},"name":"Min"}`,
      '{"id":1,"name":"One","tag":"herb"}',
      '{"id":2,"name":"Two","tag":"tree"}',
    ]) {
      expect((await server.send({ body })).status).toBe(200);
    }
    for (let id = 100; id < 1_200; id += 1) await store.addAll([{ id: BigInt(id), name: `p${id}` }]);
  });
  afterAll(() => server.stop());

  const get = (path: string) => server.send({ method: 'GET', path });

  it('lists plants in id order with their ids, exactly, 100 a page by default, and pages by after', async () => {
    const first = await get('/plants');
    expect(first.status).toBe(200);
    expect(
      first.body.startsWith(
        `[{"id":${MIN},"name":"Min"},{"id":1,"name":"One","tag":"herb"},{"id":2,"name":"Two","tag":"tree"},{"id":100,`,
      ),
    ).toBe(true);
    expect((parseJson(first.body) as unknown[]).length).toBe(100);
    const page = await get('/plants?limit=3&after=1150');
    expect(page.body).toBe('[{"id":1151,"name":"p1151"},{"id":1152,"name":"p1152"},{"id":1153,"name":"p1153"}]');
    const last = await get(`/plants?after=1199&limit=1000`);
    expect(last.body).toBe(`[{"id":${MAX},"name":"Max","tag":"tree"}]`);
    expect((await get(`/plants?after=${MAX}`)).body).toBe('[]');
    expect((parseJson((await get('/plants?limit=1000')).body) as unknown[]).length).toBe(1000);
  });

  it('lists only the plants with a tag, percent-encoded as any query', async () => {
    expect((await get('/plants?tag=tree')).body).toBe(
      `[{"id":2,"name":"Two","tag":"tree"},{"id":${MAX},"name":"Max","tag":"tree"}]`,
    );
    expect((await get('/plants?tag=%F0%9F%8C%B1')).body).toBe('[]');
  });

  it.each([
    ['limit=0', /limit must be a whole number from 1 to 1000/],
    ['limit=1001', /limit must be/],
    ['limit=01', /limit must be/],
    ['limit=ten', /limit must be/],
    ['after=01', /after must be an int64 in base 10, without a plus sign or leading zeros/],
    ['after=%2B1', /after must be/],
    ['after=1e3', /after must be/],
    ['after=0x10', /after must be/],
    ['after=9223372036854775808', /after must be/],
    ['after=', /after must be/],
    ['limit=1&limit=2', /the query parameter limit is given more than once/],
    ['limt=5', /unknown query parameter "limt": GET \/plants takes limit, after, tag and search/],
  ])('refuses GET /plants?%s with 400 invalid_parameter', async (query, message) => {
    const answer = await get(`/plants?${query}`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: ERROR_NUMBERS.invalid_parameter,
      message: expect.stringMatching(message),
    });
  });

  it('gets one plant by id, the int64 bounds exactly, and 404 for none', async () => {
    expect((await get(`/plants/${MAX}`)).body).toBe(`{"id":${MAX},"name":"Max","tag":"tree"}`);
    expect((await get(`/plants/${MIN}`)).body).toBe(`{"id":${MIN},"name":"Min"}`);
    const none = await get('/plants/3');
    expect(none.status).toBe(404);
    expect(JSON.parse(none.body)).toEqual({ error: ERROR_NUMBERS.not_found, message: 'no plant with id 3' });
  });

  it.each(['01', '+1', '1e3', '0x10', '9223372036854775808', '-0', 'abc', '%'])(
    'refuses the id %s in a path with 400 invalid_parameter',
    async (id) => {
      for (const method of ['GET', 'DELETE'] as const) {
        const answer = await server.send({ method, path: `/plants/${id}` });
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toMatchObject({
          error: ERROR_NUMBERS.invalid_parameter,
          message: expect.stringMatching(/^the id in the path must be an int64 in base 10/),
        });
      }
    },
  );

  it('deletes with 204 and no body, then 404; the id can then be created again', async () => {
    const deleted = await server.send({ method: 'DELETE', path: '/plants/1' });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect(store.plants.has(1n)).toBe(false);
    expect((await server.send({ method: 'DELETE', path: '/plants/1' })).status).toBe(404);
    expect((await get('/plants/1')).status).toBe(404);
    expect((await server.send({ body: '{"id":1,"name":"Again"}' })).status).toBe(200);
    expect(store.plants.get(1n)?.name).toBe('Again');
  });
});

describe('a page is stable under concurrent creates', () => {
  it('lists every plant there before the listing began exactly once, while others are created', async () => {
    const path = join(await tempDir(), 'plants.json');
    const server = await startServer(new BatchingStore(await FileStore.open(path, { checkpointAt: 500 })));
    try {
      for (let id = 0; id < 3_000; id += 2)
        expect((await server.send({ body: `{"id":${id},"name":"even"}` })).status).toBe(200);
      let creating = true;
      const creator = (async () => {
        for (let id = 1; creating && id < 3_000; id += 2) await server.send({ body: `{"id":${id},"name":"odd"}` });
      })();
      const seen: bigint[] = [];
      for (let after: string | undefined; ;) {
        const page = parseJson(
          (
            await server.send({
              method: 'GET',
              path: `/plants?limit=37${after === undefined ? '' : `&after=${after}`}`,
            })
          ).body,
        ) as { id: unknown }[];
        if (page.length === 0) break;
        for (const plant of page) seen.push(BigInt(stringifyJson(plant.id)));
        after = stringifyJson(page.at(-1)!.id);
      }
      creating = false;
      await creator;
      const evens = seen.filter((id) => id % 2n === 0n);
      expect(evens).toEqual(Array.from({ length: 1_500 }, (_, i) => BigInt(i * 2)));
      expect(new Set(seen).size).toBe(seen.length);
      expect([...seen].sort((a, b) => (a < b ? -1 : 1))).toEqual(seen);
    } finally {
      await server.stop();
    }
  });
});
