import { tempDir } from '../helpers/temp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { startServer, type RunningServer } from './support/server.js';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storedPlants } from '../helpers/stored-plants.js';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

describe('POST /plants, the contract', () => {
  const store = new MemoryStore();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(() => server.stop());

  it('answers 200 with the Plant (name and tag, no id) and stores the plant', async () => {
    const answer = await server.send({ body: '{"id": 1, "name": "Fern", "tag": "herb"}' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toEqual({ name: 'Fern', tag: 'herb' });
    expect(store.plants.get(1n)).toEqual({ id: 1n, name: 'Fern', tag: 'herb' });
  });

  it('answers a Plant without tag when none was given, and drops fields the contract does not name', async () => {
    const answer = await server.send({ body: '{"id": 2, "name": "Moss", "colour": "green"}' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ name: 'Moss' });
    expect(store.plants.get(2n)).toEqual({ id: 2n, name: 'Moss' });
  });

  it('accepts charset and case variations of application/json, and ignores a query string', async () => {
    const answer = await server.send({
      path: '/plants?x=1',
      headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
      body: '{"id": 3, "name": "Ivy"}',
    });
    expect(answer.status).toBe(200);
  });

  it('stores the int64 bounds exactly', async () => {
    for (const id of [MAX, MIN]) {
      const answer = await server.send({ body: `{"id": ${id}, "name": "Bound ${id}"}` });
      expect(answer.status, answer.body).toBe(200);
      expect(store.plants.get(BigInt(id))?.name).toBe(`Bound ${id}`);
    }
  });

  it('refuses ids just outside int64 instead of rounding them into range', async () => {
    for (const id of ['9223372036854775808', '-9223372036854775809', '1e19']) {
      const answer = await server.send({ body: `{"id": ${id}, "name": "Too big"}` });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({
        error: ERROR_NUMBERS.invalid_plant,
        message: expect.stringMatching(/id must be between/),
      });
    }
    // 9223372036854775808 is what JSON.parse would have made of the max; it must not be taken as it.
    expect(store.plants.has(2n ** 63n)).toBe(false);
  });

  const invalid: [string, string, keyof typeof ERROR_NUMBERS, RegExp][] = [
    ['malformed JSON', '{"id": 1, "name": ', 'malformed_json', /not valid JSON/],
    ['trailing garbage', '{"id": 1, "name": "a"} x', 'malformed_json', /not valid JSON/],
    ['an empty body', '', 'malformed_json', /not valid JSON/],
    ['a duplicate key with another value', '{"id": 10, "id": 11, "name": "a"}', 'malformed_json', /Duplicate key/],
    ['deep nesting', `${'['.repeat(20_000)}${']'.repeat(20_000)}`, 'malformed_json', /nested too deeply/],
    ['an array', '[{"id": 1, "name": "a"}]', 'invalid_plant', /must be a JSON object/],
    ['a number', '42', 'invalid_plant', /must be a JSON object/],
    ['null', 'null', 'invalid_plant', /must be a JSON object/],
    ['a missing id', '{"name": "a"}', 'invalid_plant', /id is required/],
    ['a missing name', '{"id": 20}', 'invalid_plant', /name is required/],
    ['an id given as a string', '{"id": "1", "name": "a"}', 'invalid_plant', /id must be an integer/],
    ['a fractional id', '{"id": 1.5, "name": "a"}', 'invalid_plant', /id must be an integer/],
    ['a name of the wrong type', '{"id": 21, "name": 5}', 'invalid_plant', /name must be a string/],
    ['a tag of null', '{"id": 22, "name": "a", "tag": null}', 'invalid_plant', /tag must be a string/],
    [
      'a name over 1,000 characters',
      `{"id": 23, "name": "${'\\ud83c\\udf31'.repeat(1001)}"}`,
      'invalid_plant',
      /name must be at most 1,000 characters/,
    ],
    [
      'a raw control character in a string (not JSON)',
      '{"id": 24, "name": "a\tb"}',
      'malformed_json',
      /not valid JSON/,
    ],
  ];
  it.each(invalid)('answers 400 for %s', async (_what, body, code, message) => {
    const answer = await server.send({ body });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: ERROR_NUMBERS[code], message: expect.stringMatching(message) });
  });

  it('answers 400 malformed_json for a body that is not UTF-8', async () => {
    const answer = await server.send({ body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: ERROR_NUMBERS.malformed_json,
      message: expect.stringMatching(/UTF-8/),
    });
  });

  it.each([['text/plain'], ['application/jsonx'], ['application/x-www-form-urlencoded'], ['']])(
    'answers 400 unsupported_media_type for Content-Type %j',
    async (contentType) => {
      const answer = await server.send({ headers: { 'content-type': contentType }, body: '{"id": 30, "name": "a"}' });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject({ error: ERROR_NUMBERS.unsupported_media_type });
      expect(store.plants.has(30n)).toBe(false);
    },
  );

  it('answers 400 duplicate_id for an id already stored, and keeps the first plant', async () => {
    expect((await server.send({ body: '{"id": 40, "name": "First"}' })).status).toBe(200);
    const answer = await server.send({ body: '{"id": 40, "name": "Second"}' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: ERROR_NUMBERS.duplicate_id,
      message: 'a plant with id 40 already exists',
    });
    expect(store.plants.get(40n)?.name).toBe('First');
  });

  it.each([
    ['an empty name and tag', '', ''],
    ['control characters, escaped as JSON writes them', 'a\u0000\t\n\u001b[2J\u007f\u0085', '\r'],
    ['lone surrogates', '\ud800', '\udfff'],
    ['right-to-left marks and emoji', '\u200f\u202eesreveR', '\u{1F331}'],
  ])('answers 200 for any string the contract accepts (%s), stored and answered exactly', async (_what, name, tag) => {
    const id = 60n + BigInt(store.plants.size);
    const answer = await server.send({ body: JSON.stringify({ id: Number(id), name, tag }) });
    expect(answer.status, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ name, tag });
    expect(store.plants.get(id)).toEqual({ id, name, tag });
  });

  it('keeps the connection usable after a 400', async () => {
    for (let i = 0; i < 3; i++) expect((await server.send({ body: '{' })).status).toBe(400);
    expect((await server.send({ body: '{"id": 50, "name": "After"}' })).status).toBe(200);
  });
});

describe('POST /plants on the file store', () => {
  it('writes the int64 bounds to the file digit for digit', async () => {
    const path = join(await tempDir(), 'plants.json');
    const server = await startServer(new BatchingStore(await FileStore.open(path)));
    try {
      for (const id of [MAX, MIN])
        expect((await server.send({ body: `{"id": ${id}, "name": "n${id}"}` })).status).toBe(200);
      expect((await server.send({ body: '{"id": 9223372036854775808, "name": "x"}' })).status).toBe(400);
      const stored = await storedPlants(path);
      expect([...stored.keys()]).toEqual([BigInt(MIN), BigInt(MAX)]);
      const text = await readFile(`${path}.journal`, 'utf8');
      expect(text).toContain(`"id":${MAX},`);
      expect(text).toContain(`"id":${MIN},`);
    } finally {
      await server.stop();
    }
  });
});
