import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePlant } from '../../src/core/plant-json.js';
import { nameMatcher } from '../../src/core/name-search.js';
import type { NewPlant } from '../../src/core/schemas.js';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { CORPUS_NAMES } from '../helpers/search-corpus.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';

const MAX = 9223372036854775807n;

/** The corpus as plants: the first two at ±(2^63-1). */
const PLANTS: NewPlant[] = CORPUS_NAMES.map((name, i) => {
  const id = i === 0 ? MAX : i === 1 ? -MAX : BigInt(i);
  return i % 2 === 0 ? { id, name, tag: 'even' } : { id, name };
});

/**
 * Searches of the corpus a command line can carry (an argument has no NUL, no lone surrogate: the
 * stores are held to every search of the corpus in test/helpers/search-conformance.ts).
 */
const SEARCHES = ['', 'fern', 'é', 'ß', 'ẞ', 'İ', 'σ', 'ς', 'k', '\u212a', '\u{10400}', '\ufdd0'];
SEARCHES.push('"', '\\', 'u0000', '%', '[a-z]*');

let db: TestDatabase;
let home: string;
const servers: RunningServer[] = [];
/** Where each command line runs: --local, a plants serve on the file store, one on PostgreSQL. */
const targets: Record<string, string[]> = {};

beforeAll(async () => {
  // Its own (tempDir's are removed after each test): the stores live as long as the file's tests.
  home = await mkdtemp(join(tmpdir(), 'plants-test-search-'));
  const file = join(home, 'corpus.ndjson');
  await writeFile(file, `${PLANTS.map(encodePlant).join('\n')}\n`);
  db = await createTestDatabase();
  const onFile = await startServer(home);
  const onDatabase = await startServer(join(home, 'database'), ['--database', db.url]);
  servers.push(onFile, onDatabase);
  targets['--local'] = ['--local'];
  targets['plants serve (file store)'] = ['--base-url', onFile.url, '--token', onFile.token];
  targets['plants serve --database'] = ['--base-url', onDatabase.url, '--token', onDatabase.token];
  for (const target of Object.values(targets)) {
    const imported = await runPlants(['import', file, ...target], isolatedEnv(home));
    expect(imported.code, imported.stderr).toBe(0);
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  await db?.drop();
  await rm(home, { recursive: true, force: true });
});

async function plants(args: string[]): Promise<string> {
  const result = await runPlants(args, isolatedEnv(home));
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

describe('plants list --search and --count: --local, a service on the file store, one on PostgreSQL', () => {
  it('find and count the same plants as the definition, on the tricky corpus, everywhere', async () => {
    for (const search of SEARCHES) {
      const named = nameMatcher(search);
      const found = PLANTS.filter((plant) => named(plant.name));
      const expected = found.map((plant) => plant.id).sort((a, b) => (a < b ? -1 : 1));
      for (const [where, target] of Object.entries(targets)) {
        const what = `${where}, --search ${JSON.stringify(search)}`;
        const listed = await plants(['list', '--search', search, '--json', 'id', ...target]);
        const ids = [...listed.matchAll(/"id":(-?\d+)/g)].map((match) => BigInt(match[1] as string));
        expect(ids, what).toEqual(expected);
        expect(await plants(['list', '--search', search, '--count', ...target]), what).toBe(`${expected.length}\n`);
      }
    }
  });

  it('count with a tag, and with --json a document of the count', async () => {
    const named = nameMatcher('E');
    const expected = PLANTS.filter((plant) => plant.tag === 'even' && named(plant.name)).length;
    for (const target of Object.values(targets)) {
      const counted = await plants(['list', '--count', '--tag', 'even', '--search', 'E', '--json', ...target]);
      expect(counted).toBe(`{\n  "count": ${expected}\n}\n`);
      expect(await plants(['list', '--count', ...target])).toBe(`${PLANTS.length}\n`);
    }
  });

  it('list --json id,name | … keeps ids exact at ±(2^63-1), from the store and from a service', () => {
    for (const target of [targets['--local'], targets['plants serve --database']] as string[][]) {
      const script = `"${process.execPath}" "${BIN}" list --json id,name --search fern "$@" | cat`;
      const piped = spawnSync('bash', ['-c', script, 'bash', ...target], { env: isolatedEnv(home), encoding: 'utf8' });
      expect(piped.status, piped.stderr).toBe(0);
      const plantsFound = ['{"id":-9223372036854775807,"name":"BOSTON FERN"}', '{"id":2,"name":"boston fern"}'];
      plantsFound.push('{"id":3,"name":"Fernando"}', '{"id":9223372036854775807,"name":"Fern"}');
      expect(piped.stdout).toBe(`[\n  ${plantsFound.join(',\n  ')}\n]\n`);
    }
  });
});
