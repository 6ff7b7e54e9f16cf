import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runPlantsWithin } from '../helpers/cli-process.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { tempDir } from '../helpers/temp.js';
import { pattern } from '../helpers/pattern.js';

const page = (ids: number[], tag?: string) =>
  JSON.stringify(ids.map((id) => ({ id, name: `p${id}`, ...(tag === undefined ? {} : { tag }) })));
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

let service: FakeService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

/** plants list against a service that answers every GET /plants with `body(url)`; bounded: one that loops is killed. */
async function listAgainst(body: (url: URL) => string, args: string[] = []) {
  service = await fakeService();
  service.answer((request) => ({ status: 200, body: body(new URL(request.url, 'http://x')) }));
  const home = await tempDir();
  return await runPlantsWithin(
    15_000,
    ['list', ...args, '--base-url', service.url, '--token', 'a-token-of-twenty-chars'],
    isolatedEnv(home),
  );
}

describe('plants list holds each page to the order it asked for (issue 29)', () => {
  it('stops at a page that ignores after, instead of printing the first page for ever (exit 4)', async () => {
    // Ten pages as asked, then the first again and again.
    const result = await listAgainst((url) => {
      const after = Number(url.searchParams.get('after') ?? 0);
      return page(range(after < 10_000 ? after + 1 : 1, 1000));
    });
    expect(result.code).toBe(4);
    // The ten pages, printed whole; then the error, once.
    expect(result.stdout.split('\n').length).toBe(10_001);
    expect(result.stderr).toMatch(
      pattern(
        /^error: the service answered GET \/plants\?limit=1000&after=10000 /,
        /with a page that begins at id 1, not after 10000: as if it ignored after\n/,
      ),
    );
  });

  it.each([
    [
      'more plants than the limit',
      ['--limit', '2'],
      () => page([1, 2, 3]),
      'holds 3 plants, more than the limit of 2: as if it ignored limit',
    ],
    ['ids out of order', [], () => page([1, 3, 2]), 'has id 2 after id 3: not in increasing id order'],
    ['an id twice', [], () => page([1, 2, 2]), 'has id 2 after id 2: not in increasing id order'],
    [
      'a page going back',
      ['--after', '50'],
      () => page([40, 41]),
      'begins at id 40, not after 50: as if it ignored after',
    ],
    [
      'another tag',
      ['--tag', 'herb'],
      () =>
        JSON.stringify([
          { id: 1, name: 'a', tag: 'herb' },
          { id: 2, name: 'b', tag: 'tree' },
        ]),
      'holds plant 2, tagged "tree", where the tag asked for is "herb": as if it ignored tag',
    ],
    [
      'a name without the search',
      ['--search', 'FERN'],
      () =>
        JSON.stringify([
          { id: 1, name: 'Boston fern' },
          { id: 2, name: 'Ivy' },
        ]),
      'holds plant 2, whose name does not hold "FERN": as if it ignored search',
    ],
    // Simple case folding, as every store: a service that folds ß to ss answers a name ß does not find.
    [
      'a name that holds the search by another folding',
      ['--search', 'ß'],
      () => JSON.stringify([{ id: 1, name: 'STRASSE' }]),
      'holds plant 1, whose name does not hold "ß": as if it ignored search',
    ],
  ])('stops at a page with %s (exit 4)', async (_, args, body, why) => {
    const result = await listAgainst(body, args as string[]);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`with a page that ${why}\n`);
  });
});

describe('plants list --count holds the service to a count', () => {
  it.each([
    ['a negative count', '{"count":-1}'],
    ['a count that is no whole number', '{"count":2.5}'],
    ['a count as text', '{"count":"3"}'],
    ['a count beyond what a double holds exactly', '{"count":9007199254740993}'],
    ['no count', '{"plants":3}'],
  ])('refuses %s (exit 4)', async (_, body) => {
    service = await fakeService();
    service.answer(() => ({ status: 200, body }));
    const serviceFlags = ['--base-url', service.url, '--token', 'a-token-of-twenty-chars'];
    const args = ['list', '--count', '--search', 'fern', ...serviceFlags];
    const result = await runPlantsWithin(15_000, args, isolatedEnv(await tempDir()));
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('(the body is not {"count": N}, N a whole number from 0)');
    expect(service.requests.map((request) => request.url)).toEqual(['/plants/count?search=fern']);
  });
});
