import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { pattern } from '../helpers/pattern.js';

const MAX = 9223372036854775807n;
const FIRST = [`{"id":1,"name":"A","tag":"x"}`, `{"id":2,"name":"B","tag":"old"}`, `{"id":${MAX},"name":"C"}`];
// 1 as it is; 2 renamed, and without a tag; MAX tagged; 4 new; a bad row; 2 again, as the store will have it.
const SECOND = [
  `{"id":1,"name":"A","tag":"x"}`,
  `{"id":2,"name":"B2"}`,
  `{"id":${MAX},"name":"C","tag":"t"}`,
  `{"id":4,"name":"D"}`,
  `{"id":"bad","name":"E"}`,
  `{"id":2,"name":"B2"}`,
];

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** A store and the flags that reach it: --local, or a real plants serve on it. */
async function target(
  kind: 'local' | 'remote',
): Promise<{ dir: string; env: Record<string, string>; flags: string[]; store: string }> {
  const dir = await tempDir();
  const env = isolatedEnv(dir);
  if (kind === 'local')
    return { dir, env, flags: ['--local', '--store', join(dir, 'plants.json')], store: join(dir, 'plants.json') };
  server = await startServer(dir);
  return { dir, env, flags: ['--base-url', server.url, '--token', server.token], store: server.store };
}

describe.each(['local', 'remote'] as const)('plants import --on-conflict update (%s)', (kind) => {
  it('creates, replaces or leaves each plant, counts which in text and --json, and in a dry run', async () => {
    const t = await target(kind);
    const first = join(t.dir, 'first.ndjson');
    const second = join(t.dir, 'second.ndjson');
    await writeFile(first, `${FIRST.join('\n')}\n`);
    await writeFile(second, `${SECOND.join('\n')}\n`);
    expect((await runPlants(['import', first, ...t.flags], t.env)).code).toBe(0);

    const dry = await runPlants(['import', second, '--on-conflict', 'update', '--dry-run', ...t.flags], t.env);
    expect(dry.stderr).toMatch(/^Checked 6 rows for .*: 1 to create, 3 to update, 1 unchanged, 1 invalid\n/);
    expect(dry.code).toBe(1);

    const run = await runPlants(['import', second, '--on-conflict', 'update', ...t.flags], t.env);
    expect(run.stderr).toMatch(
      pattern(
        /^Imported 6 rows into .*: 1 created, 2 updated, 2 unchanged, 1 failed\n/,
        / {2}line 5: id must be an integer, got the string "bad"\n$/,
      ),
    );
    expect(run.code).toBe(1);

    // The same import again: nothing left to change, and the same store.
    const again = await runPlants(['import', second, '--on-conflict', 'update', '--json', ...t.flags], t.env);
    expect(JSON.parse(again.stdout).counts).toEqual({
      read: 6,
      created: 0,
      skipped: 0,
      valid: 0,
      failed: 1,
      unknown: 0,
      notSent: 0,
      updated: 0,
      unchanged: 5,
    });
    await server?.stop();
    expect([...(await storedPlants(t.store)).values()]).toEqual([
      { id: 1n, name: 'A', tag: 'x' },
      { id: 2n, name: 'B2' },
      { id: 4n, name: 'D' },
      { id: MAX, name: 'C', tag: 't' },
    ]);
  });

  it('writes nothing in a dry run', async () => {
    const t = await target(kind);
    const first = join(t.dir, 'first.ndjson');
    await writeFile(first, `${FIRST.join('\n')}\n`);
    expect((await runPlants(['import', first, ...t.flags], t.env)).code).toBe(0);
    const files = async () =>
      Promise.all(
        (await readdir(t.dir))
          .filter((name) => name.startsWith('plants.json') || name.startsWith('served.json'))
          .filter((name) => !name.endsWith('.index'))
          .map(async (name) => [name, await readFile(join(t.dir, name), 'utf8')]),
      );
    const before = await files();
    const second = join(t.dir, 'second.ndjson');
    await writeFile(second, `${SECOND.join('\n')}\n`);
    expect((await runPlants(['import', second, '--on-conflict', 'update', '--dry-run', ...t.flags], t.env)).code).toBe(
      1,
    );
    expect(await files()).toEqual(before);
  });
});

describe('plants import --on-conflict', () => {
  it('names the three choices when given another', async () => {
    const dir = await tempDir();
    const result = await runPlants(
      ['import', '-', '--on-conflict', 'replace', '--local', '--store', join(dir, 'p.json')],
      isolatedEnv(dir),
    );
    expect(result).toMatchObject({
      code: 2,
      stderr: 'error: --on-conflict must be one of fail, skip, update, got "replace"\nhint: see plants import --help\n',
    });
  });
});

describe('plants import --dry-run checks all it can without writing (issue 25, item 3)', () => {
  it('counts an id repeated in the input, or in the local store already, as the import would', async () => {
    const dir = await tempDir();
    const env = isolatedEnv(dir);
    const store = join(dir, 'plants.json');
    expect((await runPlants(['create', '--local', '--store', store, '--id', '801', '--name', 'X'], env)).code).toBe(0);
    const input = join(dir, 'dup.ndjson');
    await writeFile(input, '{"id":800,"name":"A"}\n{"id":801,"name":"B"}\n{"id":800,"name":"C"}\n');
    const failing = await runPlants(['import', input, '--dry-run', '--local', '--store', store], env);
    expect(failing.stderr).toMatch(
      pattern(
        /^Checked 3 rows for .*: 1 valid, 2 invalid\n/,
        / {2}line 2 \(id 801\): a plant with id 801 already exists\n/,
        / {2}line 3 \(id 800\): a plant with id 800 already exists\n$/,
      ),
    );
    expect(failing.code).toBe(1);
    const skipping = await runPlants(
      ['import', input, '--dry-run', '--local', '--store', store, '--on-conflict', 'skip'],
      env,
    );
    expect(skipping).toMatchObject({ code: 0 });
    expect(skipping.stderr).toMatch(/: 1 valid, 2 skipped, 0 invalid\n$/);
    // The same input, imported: what the dry run said.
    const real = await runPlants(['import', input, '--local', '--store', store], env);
    expect(real.stderr).toMatch(/: 1 created, 0 skipped, 2 failed\n/);
  });

  it('refuses a store that is no store, and a service with no token, as the import would', async () => {
    const dir = await tempDir();
    const input = join(dir, 'one.ndjson');
    await writeFile(input, '{"id":1,"name":"A"}\n');
    const directory = await runPlants(['import', input, '--dry-run', '--local', '--store', dir], isolatedEnv(dir));
    expect(directory.code).toBe(4);
    expect(directory.stderr).toMatch(/is a directory, not a store file/);
    const noToken = await runPlants(
      ['import', input, '--dry-run', '--base-url', 'http://127.0.0.1:1'],
      isolatedEnv(dir),
    );
    expect(noToken).toMatchObject({
      code: 3,
      stderr: expect.stringMatching(/^error: no token for http:\/\/127\.0\.0\.1:1/),
    });
  });
});
