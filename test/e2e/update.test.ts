import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

const MAX = 9223372036854775807n;

/** A command line against a store of its own (--local), or against a real plants serve. */
type Where = { args: string[]; env: Record<string, string>; store: string; stop(): Promise<unknown> };

async function local(): Promise<Where> {
  const home = await tempDir();
  const store = join(home, 'plants.json');
  return { args: ['--local', '--store', store], env: isolatedEnv(home), store, stop: async () => undefined };
}

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function remote(): Promise<Where> {
  const home = await tempDir();
  server = await startServer(home);
  const running = server;
  return {
    args: ['--base-url', running.url, '--token', running.token],
    env: isolatedEnv(home),
    store: running.store,
    stop: () => running.stop(),
  };
}

describe.each([
  ['--local', local],
  ['a service', remote],
] as const)('plants update, %s', (_, where) => {
  it('changes only what is given, prints the plant as it now is, and keeps it', async () => {
    const w = await where();
    const run = (...args: string[]) => runPlants([...args, ...w.args], w.env);
    expect((await run('create', '--id', String(MAX), '--name', 'Fern', '--tag', 'herb')).code).toBe(0);
    const renamed = await run('update', String(MAX), '--name', 'Boston fern');
    expect(renamed).toMatchObject({ code: 0, stderr: '' });
    expect(renamed.stdout).toMatch(new RegExp(`^Updated plant ${MAX} "Boston fern" tagged "herb" in `));
    const untagged = await run('update', '--id', String(MAX), '--no-tag', '--json');
    expect(untagged).toMatchObject({ code: 0, stdout: `{\n  "id": ${MAX},\n  "name": "Boston fern"\n}\n` });
    const again = await run('update', String(MAX), '--no-tag');
    expect(again.stdout).toMatch(new RegExp(`^Unchanged: plant ${MAX} "Boston fern", no tag in `));
    expect((await run('update', String(MAX), '--tag', 'fern', '--name', '')).code).toBe(0);
    await w.stop();
    expect([...(await storedPlants(w.store)).values()]).toEqual([{ id: MAX, name: '', tag: 'fern' }]);
  });

  it('says there is no such plant (exit 1), and --json says it as an Error document', async () => {
    const w = await where();
    const missing = await runPlants(['update', '7', '--name', 'x', ...w.args], w.env);
    expect(missing).toMatchObject({ code: 1, stdout: '', stderr: 'error: no plant with id 7\n' });
    const json = await runPlants(['update', '7', '--name', 'x', '--json', ...w.args], w.env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 1007, code: 'not_found', message: 'no plant with id 7' });
  });
});

describe('plants update refuses what it cannot do, before anything is read or sent (exit 2)', () => {
  it.each([
    [['update', '1'], 'error: nothing to change: give --name, --tag or --no-tag\nhint: see plants update --help\n'],
    [
      ['update', '--name', 'x'],
      "error: give the plant's id with --id, or as the argument: plants update <id>\nhint: see plants update --help\n",
    ],
    [
      ['update', '1', '--id', '1', '--name', 'x'],
      'error: give the id as an argument or with --id, not both\nhint: see plants update --help\n',
    ],
    [
      ['update', '1', '--tag', 'x', '--no-tag'],
      'error: --tag and --no-tag cannot be used together\nhint: give one of the two\n',
    ],
    [
      ['update', '1', '--no-tag', '--tag=x'],
      'error: --tag and --no-tag cannot be used together\nhint: give one of the two\n',
    ],
    [
      ['update', 'x1', '--name', 'x'],
      'error: the id must be a base-10 integer, got "x1"\nhint: see plants update --help\n',
    ],
    [
      ['update', '1', '--name', 'x'.repeat(1001)] as string[],
      'error: invalid plant:\n  name must be at most 1,000 characters\n',
    ],
    [['update', '1', '--tag', 'x'.repeat(1001)], 'error: invalid plant:\n  tag must be at most 1,000 characters\n'],
  ])('%j', async (args, stderr) => {
    const home = await tempDir();
    const result = await runPlants([...args, '--local', '--store', join(home, 'plants.json')], isolatedEnv(home));
    expect(result).toMatchObject({ code: 2, stdout: '', stderr });
  });
});
