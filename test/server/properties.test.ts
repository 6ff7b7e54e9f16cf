import fc from 'fast-check';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { PLANT_ROUTES } from '../../src/server/plant-routes.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { OTHER_TOKEN, startServer, TOKEN, type RunningServer } from './support/server.js';

const MAX_BODY = 4096;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Printable ASCII: what undici lets through in a header value (it refuses CR, LF and the like). */
const headerText = (maxLength = 40) => fc.string({ unit: 'grapheme-ascii', maxLength });

const JSON_CHARS = ['"', '{', '}', '[', ',', ':', '0', '9', '.', 'e', '-', ' ', '\\', 'x', '\u0000', 'é', '\u{1F331}'];
// A header value cannot carry control characters or non-ASCII: undici refuses to send them.
const TOKEN_CHARS = ['t', 'T', '1', '2', '-', '_', ' ', '=', '~'];

/** A string with a few random edits: characters deleted, inserted or replaced. */
function mutate(text: string, chars: readonly string[] = JSON_CHARS) {
  const edit = fc.record({
    at: fc.nat(),
    kind: fc.constantFrom('delete', 'insert', 'replace'),
    char: fc.constantFrom(...chars),
  });
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) =>
    edits.reduce((current, { at, kind, char }) => {
      const index = current.length === 0 ? 0 : at % current.length;
      if (kind === 'delete') return current.slice(0, index) + current.slice(index + 1);
      if (kind === 'insert') return current.slice(0, index) + char + current.slice(index);
      return current.slice(0, index) + char + current.slice(index + 1);
    }, text),
  );
}

// --- Authorization: the right token, a mutant of it, another scheme, noise, or none. ---
// Weighted so that most requests pass each gate and reach the body; the rest probe the gates.
const authorization = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      valid: fc.constant(true),
      value: fc
        .tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER'), fc.constantFrom(TOKEN, OTHER_TOKEN))
        .map(([s, t]) => `${s} ${t}`),
    }),
  },
  fc.record({
    valid: fc.constant(false),
    value: mutate(TOKEN, TOKEN_CHARS)
      // RFC 6750 allows any number of spaces after the scheme, and node trims the header's ends.
      .filter((t) => t.trim() !== TOKEN && t.trim() !== OTHER_TOKEN)
      .map((t) => `Bearer ${t}`),
  }),
  fc.record({
    valid: fc.constant(false),
    value: fc.constantFrom(`Basic ${TOKEN}`, TOKEN, 'Bearer', `Bearer  ${TOKEN}x`),
  }),
  fc.record({ valid: fc.constant(false), value: headerText() }),
  fc.record({ valid: fc.constant(false), value: fc.constant(undefined) }),
);

const contentType = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON;charset=UTF-8',
      ' application/json ',
    ),
  },
  fc.constantFrom('text/plain', 'application/jsonp', 'application/x-www-form-urlencoded', 'json'),
  headerText(),
  fc.constant(undefined),
);

const method = fc.oneof(
  { weight: 12, arbitrary: fc.constant('POST') },
  fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
);

const path = fc.oneof(
  { weight: 12, arbitrary: fc.constant('/plants') },
  fc.webQueryParameters().map((query) => `/plants?${query}`),
  fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
  fc.constantFrom(
    '/',
    '/plants/',
    '/plants/1',
    '/plants/-7',
    '/plants/01',
    '/plants/1e3',
    '/PLANTS',
    '/plants?limit=2',
    '/plants?after=5&tag=x',
    '/plants?limit=0',
    '/plants?bogus=1',
  ),
);

// --- Bodies: valid NewPlants (ids from a small range collide on purpose), their mutants, noise. ---
const name = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 });
const validPlant = fc.record(
  {
    id: fc.oneof(
      fc.bigInt({ min: 1n, max: 40n }),
      fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
      fc.constantFrom(INT64_MIN, INT64_MAX),
    ),
    name,
    tag: name,
  },
  { requiredKeys: ['id', 'name'] },
);
const plantText = (plant: { id: bigint; name: string; tag?: string }) =>
  `{"id":${plant.id},"name":${JSON.stringify(plant.name)}` +
  `${plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`}}`;

type Body =
  | { kind: 'valid'; plant: { id: bigint; name: string; tag?: string }; bytes: Buffer }
  | { kind: 'other'; bytes: Buffer };
const body: fc.Arbitrary<Body> = fc.oneof(
  {
    weight: 4,
    arbitrary: validPlant.map((plant) => ({ kind: 'valid' as const, plant, bytes: Buffer.from(plantText(plant)) })),
  },
  {
    weight: 3,
    arbitrary: validPlant
      .chain((plant) => mutate(plantText(plant)))
      .map((text) => ({ kind: 'other' as const, bytes: Buffer.from(text) })),
  },
  {
    weight: 1,
    arbitrary: fc.json({ maxDepth: 3 }).map((text) => ({ kind: 'other' as const, bytes: Buffer.from(text) })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record(
        { id: fc.jsonValue({ maxDepth: 1 }), name: fc.jsonValue({ maxDepth: 1 }), tag: fc.jsonValue({ maxDepth: 1 }) },
        { requiredKeys: [] },
      )
      .map((fields) => ({ kind: 'other' as const, bytes: Buffer.from(JSON.stringify(fields)) })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => ({ kind: 'other' as const, bytes: Buffer.from(bytes) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: MAX_BODY + 1, max: MAX_BODY * 4 })
      .map((size) => ({ kind: 'other' as const, bytes: Buffer.alloc(size, 0x20) })),
  },
);

const request = fc.record({ authorization, contentType, method, path, body });
type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** What the request's line and headers alone decide (and a body over the limit), in the server's documented order. */
function expectedRefusal(req: Request): number | undefined {
  if (!req.authorization.valid) return 401;
  const match = PLANT_ROUTES.match(req.path);
  if (match === undefined) return 404;
  if (!match.methods.includes(req.method)) return 405;
  const mediaType = (req.contentType ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if ((req.method === 'POST' || req.method === 'PUT') && mediaType !== 'application/json') return 400;
  if (req.method === 'PATCH' && mediaType !== 'application/json' && mediaType !== 'application/merge-patch+json')
    return 400;
  if (req.body.bytes.length > MAX_BODY) return 413;
  return undefined;
}

describe('the server under random and mutated requests (fast-check)', () => {
  const memory = new MemoryStore();
  let server: RunningServer;
  let pool: Pool;
  beforeAll(async () => {
    server = await startServer(new BatchingStore(memory), { limits: { maxBodyBytes: MAX_BODY } });
    pool = new Pool(server.url, { connections: 6, headersTimeout: 3_000, bodyTimeout: 3_000 });
  });
  afterAll(async () => {
    await pool.close();
    await server.stop();
  });

  it('answers every request with a documented status and body, never 500, never a dropped connection', async () => {
    const winners = new Set<bigint>();
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 6 }), async (requests) => {
        // Sent together, so they also race each other on the store and on the connections.
        // allSettled: a failed request must not leave the others running into the next run.
        const settled = await Promise.allSettled(
          requests.map((req) =>
            server.send({
              method: req.method as 'POST',
              path: req.path,
              anonymous: true,
              headers: {
                ...(req.authorization.value === undefined ? {} : { authorization: req.authorization.value }),
                ...(req.contentType === undefined ? { 'content-type': '' } : { 'content-type': req.contentType }),
              },
              ...(req.method === 'GET' ? {} : { body: req.body.bytes }),
              dispatcher: pool,
            }),
          ),
        );
        const answers = settled.map((outcome) => {
          if (outcome.status === 'rejected') throw outcome.reason;
          return outcome.value;
        });
        requests.forEach((req, index) => {
          const answer = answers[index]!;
          // server.send has checked status, headers and body against openapi.json already.
          expect([200, 201, 204, 400, 401, 404, 405, 413]).toContain(answer.status);
          const refusal = expectedRefusal(
            req.method === 'GET' ? { ...req, body: { kind: 'other', bytes: Buffer.alloc(0) } } : req,
          );
          if (refusal !== undefined) {
            expect(answer.status, answer.body).toBe(refusal);
            if (refusal === 400) expect(JSON.parse(answer.body).error).toBe(ERROR_NUMBERS.unsupported_media_type);
            return;
          }
          const route = PLANT_ROUTES.match(req.path)?.path;
          if (req.method === 'DELETE') {
            expect([204, 400, 404]).toContain(answer.status);
            // Deleted: its id may win a create again.
            if (answer.status === 204) winners.delete(BigInt(decodeURIComponent(req.path.split('/')[2] as string)));
            return;
          }
          if (req.method === 'GET') {
            expect(route === '/plants' ? [200, 400] : [200, 400, 404]).toContain(answer.status);
            return;
          }
          if (req.method === 'PUT' || req.method === 'PATCH') {
            expect(req.method === 'PUT' ? [200, 201, 400] : [200, 400, 404]).toContain(answer.status);
            return;
          }
          expect([200, 400]).toContain(answer.status);
          if (req.body.kind !== 'valid') return;
          const { plant } = req.body;
          // Another request of the run that changes this plant (PUT, PATCH, DELETE) may come before
          // or after this one: the store then holds what that one left.
          const changedBeside = requests.some(
            (other) =>
              other !== req &&
              ['PUT', 'PATCH', 'DELETE'].includes(other.method) &&
              PLANT_ROUTES.match(other.path)?.params.id === String(plant.id),
          );
          if (answer.status === 200) {
            expect(JSON.parse(answer.body)).toEqual(
              plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag },
            );
            expect(winners.has(plant.id), `a second 200 for id ${plant.id}`).toBe(false);
            winners.add(plant.id);
            if (!changedBeside) expect(memory.plants.get(plant.id)).toEqual(plant);
          } else {
            expect(JSON.parse(answer.body).error).toBe(ERROR_NUMBERS.duplicate_id);
            if (!changedBeside) expect(memory.plants.has(plant.id)).toBe(true);
          }
        });
      }),
      { numRuns: 300 },
    );
    expect(server.errors).toEqual([]);
  });
});
