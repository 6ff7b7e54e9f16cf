import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { startServer, type RunningServer } from './support/server.js';

const MAX = '9223372036854775807';

describe('GET /plants?search= and GET /plants/count: extensions', () => {
  const store = new MemoryStore();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(store);
    await store.addAll([
      { id: 1n, name: 'Boston Fern', tag: 'herb' },
      { id: 2n, name: 'Fernando' },
      { id: 3n, name: 'Émile', tag: 'herb' },
      { id: 4n, name: 'ΟΔΟΣ', tag: 'herb' },
      { id: BigInt(MAX), name: 'FERN MAX', tag: 'tree' },
    ]);
  });
  afterAll(() => server.stop());

  const get = (path: string) => server.send({ method: 'GET', path });

  it('finds names that hold the text, case aside, with tag, after and limit', async () => {
    const max = `{"id":${MAX},"name":"FERN MAX","tag":"tree"}`;
    const ferns = `[{"id":1,"name":"Boston Fern","tag":"herb"},{"id":2,"name":"Fernando"},${max}]`;
    expect((await get('/plants?search=fern')).body).toBe(ferns);
    expect((await get('/plants?search=%C3%A9MILE')).body).toBe('[{"id":3,"name":"Émile","tag":"herb"}]');
    expect((await get('/plants?search=%CF%82')).body).toBe('[{"id":4,"name":"ΟΔΟΣ","tag":"herb"}]');
    expect((await get('/plants?search=FERN&tag=herb')).body).toBe('[{"id":1,"name":"Boston Fern","tag":"herb"}]');
    expect((await get('/plants?search=fern&after=1&limit=1')).body).toBe('[{"id":2,"name":"Fernando"}]');
    expect((parseBody(await get('/plants?search=')) as unknown[]).length).toBe(5);
  });

  it('counts the plants that match, as {"count": N}', async () => {
    expect(await get('/plants/count')).toMatchObject({ status: 200, body: '{"count":5}' });
    expect((await get('/plants/count?search=fern')).body).toBe('{"count":3}');
    expect((await get('/plants/count?search=fern&tag=herb')).body).toBe('{"count":1}');
    expect((await get('/plants/count?tag=none')).body).toBe('{"count":0}');
  });

  it.each([
    ['a search of 1,001 characters', `/plants?search=${'é'.repeat(1001)}`, /search must be at most 1,000 characters/],
    ['a search given twice', '/plants?search=a&search=b', /the query parameter search is given more than once/],
    ['a count of a page', '/plants/count?limit=5', /"limit": GET \/plants\/count takes tag and search$/],
    ['a count after an id', '/plants/count?after=1', /unknown query parameter "after"/],
  ])('refuses %s with 400 invalid_parameter', async (_what, path, message) => {
    const answer = await get(path);
    expect(answer.status).toBe(400);
    const refused = { error: ERROR_NUMBERS.invalid_parameter, message: expect.stringMatching(message) };
    expect(JSON.parse(answer.body)).toEqual(refused);
  });

  it('takes only GET at /plants/count, and only with a token', async () => {
    const put = await server.send({ method: 'PUT', path: '/plants/count', body: '{"name":"x"}' });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET');
    expect((await server.send({ method: 'GET', path: '/plants/count', anonymous: true })).status).toBe(401);
  });
});

function parseBody(answer: { body: string }): unknown {
  return JSON.parse(answer.body);
}
