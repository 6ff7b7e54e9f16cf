import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { etagOf } from '../../src/core/etag.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { faultyFs } from '../helpers/faulty-fs.js';
import { tempDir } from '../helpers/temp.js';
import { startServer, type RunningServer } from './support/server.js';

const MAX = 9223372036854775807n;

describe('PUT and PATCH /plants/{id}, and preconditions: changing plants', () => {
  const memory = new MemoryStore();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(new BatchingStore(memory));
  });
  afterAll(() => server.stop());

  const put = (id: bigint | string, body: string, headers: Record<string, string> = {}) =>
    server.send({ method: 'PUT', path: `/plants/${id}`, body, headers });
  const patch = (id: bigint | string, body: string, headers: Record<string, string> = {}) =>
    server.send({
      method: 'PATCH',
      path: `/plants/${id}`,
      body,
      headers: { 'content-type': 'application/merge-patch+json', ...headers },
    });
  const error = (answer: { body: string }) => JSON.parse(answer.body) as { error: number; message: string };

  it('PUT creates (201), replaces whole (200), and writes nothing for the same plant, saying which', async () => {
    const created = await put(MAX, '{"name":"Max","tag":"tree"}');
    expect(created).toMatchObject({ status: 201, body: `{"id":${MAX},"name":"Max","tag":"tree"}` });
    expect(created.headers).toMatchObject({
      etag: etagOf({ id: MAX, name: 'Max', tag: 'tree' }),
      'plants-outcome': 'created',
    });
    // A tag left out leaves the plant without one: a PUT replaces whole.
    const replaced = await put(MAX, `{"id":${MAX},"name":"Max"}`);
    expect(replaced).toMatchObject({ status: 200, body: `{"id":${MAX},"name":"Max"}` });
    expect(replaced.headers['plants-outcome']).toBe('updated');
    const same = await put(MAX, '{"name":"Max"}');
    expect(same.headers['plants-outcome']).toBe('unchanged');
    expect(memory.plants.get(MAX)).toEqual({ id: MAX, name: 'Max' });
    // GET answers the same ETag for the same state.
    expect((await server.send({ method: 'GET', path: `/plants/${MAX}` })).headers.etag).toBe(replaced.headers.etag);
  });

  it('PATCH changes only the fields given, null removes the tag, and answers the plant as it now is', async () => {
    await put(1n, '{"name":"Fern","tag":"herb"}');
    expect(await patch(1n, '{"name":"Fern the Second"}')).toMatchObject({
      status: 200,
      body: '{"id":1,"name":"Fern the Second","tag":"herb"}',
    });
    const untagged = await patch(1n, '{"tag":null}', { 'content-type': 'application/json' });
    expect(untagged).toMatchObject({ status: 200, body: '{"id":1,"name":"Fern the Second"}' });
    expect(untagged.headers).toMatchObject({
      'plants-outcome': 'updated',
      etag: etagOf({ id: 1n, name: 'Fern the Second' }),
    });
    expect((await patch(1n, '{}')).headers['plants-outcome']).toBe('unchanged');
    expect(await patch(404n, '{"name":"x"}')).toMatchObject({ status: 404 });
    expect(error(await patch(404n, '{"name":"x"}'))).toEqual({
      error: ERROR_NUMBERS.not_found,
      message: 'no plant with id 404',
    });
  });

  it.each([
    ['{"name":null}', 'name must be a string, got null'],
    ['{"name":5}', 'name must be a string, got 5'],
    [`{"tag":"${'x'.repeat(1001)}"}`, 'tag must be at most 1,000 characters'],
    ['{"tag":7}', 'tag must be a string, or null for no tag, got 7'],
    ['{"id":2,"name":"x"}', 'id must be 3, the id in the path, or left out, got 2'],
    ['[]', 'body must be a JSON object, got an array'],
  ])('PATCH refuses %s as a create would: 400, nothing changed', async (body, issue) => {
    await put(3n, '{"name":"Three"}');
    const answer = await patch(3n, body);
    expect(answer.status).toBe(400);
    expect(error(answer)).toMatchObject({ error: ERROR_NUMBERS.invalid_plant, message: `invalid plant: ${issue}` });
    expect(memory.plants.get(3n)).toEqual({ id: 3n, name: 'Three' });
  });

  it.each([
    ['{"tag":"x"}', 'name is required'],
    ['{"id":4.5,"name":"x"}', 'id must be an integer, got 4.5'],
    ['{"id":5,"name":"x"}', 'id must be 4, the id in the path, or left out, got 5'],
  ])('PUT refuses %s: 400 with the issues of a create', async (body, issue) => {
    const answer = await put(4n, body);
    expect(answer.status).toBe(400);
    expect(error(answer)).toMatchObject({ error: ERROR_NUMBERS.invalid_plant, message: `invalid plant: ${issue}` });
    expect(memory.plants.has(4n)).toBe(false);
  });

  it('refuses a body of another media type, and one that is not JSON', async () => {
    expect(error(await put(5n, '{"name":"x"}', { 'content-type': 'application/merge-patch+json' }))).toMatchObject({
      error: ERROR_NUMBERS.unsupported_media_type,
    });
    expect(error(await patch(5n, '{"name":"x"}', { 'content-type': 'text/plain' }))).toMatchObject({
      error: ERROR_NUMBERS.unsupported_media_type,
      message: 'the request body must be sent as Content-Type: application/merge-patch+json or application/json',
    });
    expect(error(await put(5n, '{"name":'))).toMatchObject({ error: ERROR_NUMBERS.malformed_json });
  });

  it('changes a plant only in the state If-Match names, else 412 with nothing changed', async () => {
    const first = await put(10n, '{"name":"Ten"}');
    const etag = first.headers.etag as string;
    const moved = await patch(10n, '{"tag":"t"}', { 'if-match': etag });
    expect(moved.status).toBe(200);
    // The same ETag again: the plant has moved on, so the lost update is refused.
    const stale = await put(10n, '{"name":"Lost"}', { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(error(stale)).toMatchObject({ error: ERROR_NUMBERS.precondition_failed });
    expect((await server.send({ method: 'DELETE', path: '/plants/10', headers: { 'if-match': etag } })).status).toBe(
      412,
    );
    expect(memory.plants.get(10n)).toEqual({ id: 10n, name: 'Ten', tag: 't' });
    // A list of tags: any of them; a weak tag never matches (a strong comparison).
    expect(
      (await patch(10n, '{"name":"Ten!"}', { 'if-match': `"nope", ${moved.headers.etag as string}` })).status,
    ).toBe(200);
    expect(
      (await patch(10n, '{"name":"Ten?"}', { 'if-match': `W/${etagOf({ id: 10n, name: 'Ten!', tag: 't' })}` })).status,
    ).toBe(412);
    expect(
      (
        await server.send({
          method: 'DELETE',
          path: '/plants/10',
          headers: { 'if-match': etagOf({ id: 10n, name: 'Ten!', tag: 't' }) },
        })
      ).status,
    ).toBe(204);
    // If-Match on no plant: 412, not 404 (RFC 9110 §13.1.1).
    expect((await patch(10n, '{"name":"x"}', { 'if-match': '*' })).status).toBe(412);
    expect((await put(10n, '{"name":"x"}', { 'if-match': '*' })).status).toBe(412);
  });

  it('creates only where there is no plant, with If-None-Match: *', async () => {
    expect((await put(20n, '{"name":"Twenty"}', { 'if-none-match': '*' })).status).toBe(201);
    expect((await put(20n, '{"name":"Again"}', { 'if-none-match': '*' })).status).toBe(412);
    expect(memory.plants.get(20n)).toEqual({ id: 20n, name: 'Twenty' });
  });

  it.each([
    [{ 'if-none-match': '"abc"' }, 'If-None-Match takes only * here'],
    [{ 'if-match': '*', 'if-none-match': '*' }, 'give If-Match or If-None-Match, not both'],
    [{ 'if-match': 'abc' }, 'If-Match must be * or a list of entity tags'],
  ])('refuses a precondition it cannot honour plainly: %o', async (headers, message) => {
    const answer = await put(30n, '{"name":"x"}', headers);
    expect(answer.status).toBe(400);
    expect(error(answer)).toMatchObject({
      error: ERROR_NUMBERS.bad_request,
      message: expect.stringContaining(message),
    });
    expect(memory.plants.has(30n)).toBe(false);
  });

  it('answers 413 for a body over the limit before it looks at the id', async () => {
    const answer = await server.send({
      method: 'DELETE',
      path: '/plants/1e3',
      body: ' '.repeat(70_000),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(413);
  });
});

describe('a change the disk has no room for', () => {
  it('answers 503 (nothing stored), and the plant is as it was', async () => {
    const fs = faultyFs();
    const store = await FileStore.open(join(await tempDir(), 'plants.json'), { fs });
    const server = await startServer(new BatchingStore(store));
    try {
      expect(
        (await server.send({ method: 'PUT', path: '/plants/1', body: '{"name":"Fern","tag":"herb"}' })).status,
      ).toBe(201);
      fs.room = 0;
      for (const [method, body] of [
        ['PUT', '{"name":"Oak"}'],
        ['PATCH', '{"tag":null}'],
      ] as const) {
        const answer = await server.send({ method, path: '/plants/1', body });
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('1');
      }
      expect((await server.send({ method: 'DELETE', path: '/plants/1' })).status).toBe(503);
      fs.room = Infinity;
      expect(JSON.parse((await server.send({ method: 'GET', path: '/plants/1' })).body)).toEqual({
        id: 1,
        name: 'Fern',
        tag: 'herb',
      });
    } finally {
      await server.stop();
      await store.close();
    }
  });
});
