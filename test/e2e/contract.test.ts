import fc from 'fast-check';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/json.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDirForFile } from '../helpers/temp.js';
import { testContext, type TestContext } from '../helpers/test-context.js';
import { storedPlants } from '../helpers/stored-plants.js';

// The contract's NewPlant, as its schema says and nothing narrower: `id` any int64, `name` any
// string, `tag` any string or absent. Strings within our documented limit (1,000 characters), of
// any code point: controls, lone surrogates, right-to-left marks, emoji, empty.
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_CHARACTERS = 1000;

const anyCodePoint = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
  fc.integer({ min: 0, max: 0x9f }).map((point) => String.fromCodePoint(point)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
  fc.constantFrom('\u200e', '\u200f', '\u202e', '\u2066', '\u2028', '"', '\\', '\u{1F331}', 'é'),
);
const anyString = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: anyCodePoint, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: anyCodePoint, minLength: 900, maxLength: MAX_CHARACTERS }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '\u{1F331}'.repeat(MAX_CHARACTERS),
      '\ud800'.repeat(MAX_CHARACTERS),
      'x'.repeat(MAX_CHARACTERS),
    ),
  },
);
const newPlant = fc.record(
  {
    id: fc.oneof(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), fc.constantFrom(INT64_MIN, INT64_MAX, 0n, -1n)),
    name: anyString,
    tag: anyString,
  },
  { requiredKeys: ['id', 'name'] },
);
type NewPlantValue = { id: bigint; name: string; tag?: string };

/**
 * An int64 written as any JSON number of the same value: the contract's id is JSON Schema's
 * `integer`, which is a value, not a spelling. `100` as `100`, `1e2`, `1E+2`, `10.0e1`, `100.00`,
 * `1000e-1`, `1.00e02`; `0` also as `-0`, `0.0`, `0e7`.
 */
const idText = (id: bigint) =>
  fc
    .record({
      point: fc.nat(),
      zeros: fc.nat({ max: 3 }),
      shift: fc.nat({ max: 3 }),
      marker: fc.constantFrom('e', 'E', 'e+', 'E+'),
      exponentZeros: fc.nat({ max: 2 }),
      negativeZero: fc.boolean(),
    })
    .map(({ point, zeros, shift, marker, exponentZeros, negativeZero }) => {
      const sign = id < 0n ? '-' : id === 0n && negativeZero ? '-' : '';
      // The digits with `shift` zeros more, then a decimal point `point` digits from the left, the
      // exponent making up for both; `zeros` more zeros after the point. Zero has one digit before
      // its point (JSON allows no leading zero), and any exponent.
      const digits = id === 0n ? '0' : `${id < 0n ? -id : id}${'0'.repeat(shift)}`;
      const at = 1 + (point % digits.length);
      const fraction = `${digits.slice(at)}${'0'.repeat(zeros)}`;
      const exponent = id === 0n ? (point % 2 === 0 ? shift : -shift) : digits.length - at - shift;
      const mantissa = `${digits.slice(0, at)}${fraction === '' ? '' : `.${fraction}`}`;
      if (exponent === 0 && zeros === 0 && shift === 0) return `${sign}${mantissa}`;
      const written =
        exponent < 0
          ? `e-${'0'.repeat(exponentZeros)}${-exponent}`
          : `${marker}${'0'.repeat(exponentZeros)}${exponent}`;
      return `${sign}${mantissa}${written}`;
    });

const bodyOf = (plant: NewPlantValue, id: string = String(plant.id)) =>
  `{"id":${id},"name":${JSON.stringify(plant.name)}` +
  `${plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`}}`;

/** A plant, and its body with the id written as one of the JSON numbers of its value. */
const newPlantBody = newPlant.chain((plant) =>
  fc.oneof(fc.constant(String(plant.id)), idText(plant.id)).map((id) => ({ plant, body: bodyOf(plant, id) })),
);

// Bodies outside the schema: wrong types, a missing required field, an id that is no int64, no object.
const notAString = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom('null', 'true', 'false', '[]', '{}', '["x"]', '{"a":"b"}', '1.5'),
);
/**
 * Strings over the limit: 1,001 code points and more, of any kind (an astral one is one code point,
 * two UTF-16 units; two halves of a pair drawn apart make one).
 */
const tooLong = fc.oneof(
  fc
    .string({ unit: anyCodePoint, minLength: MAX_CHARACTERS + 1, maxLength: MAX_CHARACTERS + 100 })
    .filter((text) => [...text].length > MAX_CHARACTERS),
  fc.constantFrom(
    'x'.repeat(MAX_CHARACTERS + 1),
    '\u{1F331}'.repeat(MAX_CHARACTERS + 1),
    '\ud800'.repeat(MAX_CHARACTERS + 1),
  ),
);
const invalidBody = fc.oneof(
  notAString.map((name) => `{"id":1,"name":${name}}`),
  notAString.map((tag) => `{"id":1,"name":"x","tag":${tag}}`),
  tooLong.map((name) => `{"id":1,"name":${JSON.stringify(name)}}`),
  tooLong.map((tag) => `{"id":1,"name":"x","tag":${JSON.stringify(tag)}}`),
  fc.constantFrom('{"id":1,"name":"x","tag":null}', '{"id":1,"name":5}', '{"id":1,"name":null}'),
  fc.constantFrom(
    '{"name":"x"}',
    '{"id":1}',
    '{}',
    '{"id":null,"name":"x"}',
    '{"id":"1","name":"x"}',
    '{"id":1.5,"name":"x"}',
    '{"id":true,"name":"x"}',
  ),
  fc
    .constantFrom(
      '9223372036854775808',
      '-9223372036854775809',
      '1e19',
      '1e400',
      '-1e19',
      '1e-1',
      '15e-1',
      '1.5e0',
      '9.223372036854775808e18',
      '-92233720368547758090e-1',
    )
    .map((id) => `{"id":${id},"name":"x"}`),
  fc.constantFrom('[]', '[{"id":1,"name":"x"}]', '1', '"plant"', 'null', 'true'),
);

describe('every NewPlant the contract accepts is accepted, stored and answered exactly (fast-check)', () => {
  let server: RunningServer;
  let pool: Pool;
  let local: TestContext;
  const sent = new Map<bigint, NewPlantValue>();

  beforeAll(async () => {
    server = await startServer(await tempDirForFile());
    pool = new Pool(server.url, { connections: 4 });
    local = await testContext();
  });
  afterAll(async () => {
    await pool.close();
    await server.stop('SIGKILL');
  });

  const post = async (body: string) => {
    const answer = await pool.request({
      method: 'POST',
      path: '/plants',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body,
    });
    return { status: answer.statusCode, body: await answer.body.text() };
  };

  it('answers 200 with the Plant from a fresh plants serve, and create --local stores the same plant', async () => {
    await fc.assert(
      fc.asyncProperty(newPlantBody, async ({ plant, body }) => {
        fc.pre(!sent.has(plant.id));
        sent.set(plant.id, plant);
        const answer = await post(body);
        expect(answer.status, `${body}: ${answer.body}`).toBe(200);
        expect(JSON.parse(answer.body)).toEqual(
          plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag },
        );

        const before = local.stdout().length;
        const tag = plant.tag === undefined ? [] : [`--tag=${plant.tag}`];
        expect(
          await local.run('create', '--local', `--id=${plant.id}`, `--name=${plant.name}`, ...tag, '--json'),
          local.stderr(),
        ).toBe(0);
        expect(parseJson(local.stdout().slice(before))).toEqual(parseJson(bodyOf(plant)));
      }),
      { numRuns: 300 },
    );
    // Both stores hold every plant exactly, read back from their files.
    const served = await storedPlants(server.store);
    const stored = await storedPlants(local.storePath);
    for (const [id, plant] of sent) {
      expect(served.get(id)).toEqual(plant);
      expect(stored.get(id)).toEqual(plant);
    }
  });

  it('answers every body outside the schema with a 400 Error, and stores nothing', async () => {
    const before = (await storedPlants(server.store)).size;
    await fc.assert(
      fc.asyncProperty(invalidBody, async (body) => {
        const answer = await post(body);
        expect(answer.status, body).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({
          error: 1001,
          message: expect.stringMatching(/^invalid plant: (id|name|tag|body) /),
        });
      }),
      { numRuns: 200 },
    );
    expect((await storedPlants(server.store)).size).toBe(before);
  });
});
