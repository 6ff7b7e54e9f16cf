import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

const RECORDER = fileURLToPath(new URL('./fixtures/record-modules.cjs', import.meta.url));

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * What a real run of bin/plants.cjs loads: its files of dist/, and Node's built-in modules. Its
 * stdout and stderr are pipes, as when a script captures them, or with `output: 'ignore'`
 * /dev/null, as `>/dev/null 2>&1` makes them.
 */
async function loadedBy(
  args: string[],
  extraEnv: Record<string, string> = {},
  home?: string,
  output: 'pipe' | 'ignore' = 'pipe',
): Promise<{ files: string[]; builtins: string[] }> {
  home ??= await tempDir();
  const log = join(home, 'modules.log');
  const env = isolatedEnv(home, { PLANTS_TEST_MODULE_LOG: log, PLANTS_STORE: join(home, 'store.json'), ...extraEnv });
  const child = spawn(process.execPath, ['--require', RECORDER, BIN, ...args], {
    env,
    stdio: ['ignore', output, output],
  });
  child.stdout?.resume();
  child.stderr?.resume();
  await new Promise((resolve) => child.on('close', resolve));
  const loaded = (await readFile(log, 'utf8')).trim().split('\n');
  const files = loaded.filter((path) => path.includes('/dist/'));
  expect(files.length).toBeGreaterThan(0);
  return { files, builtins: loaded.filter((name) => name.startsWith('node:')) };
}

type Env = Record<string, string>;

/** The source modules of each dist/ file a run loads, as its source map names them. */
async function filesLoadedBy(args: string[], extraEnv: Env = {}, home?: string): Promise<string[][]> {
  return await Promise.all(
    (await loadedBy(args, extraEnv, home)).files.map(async (file) => {
      const map = JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[] };
      return map.sources.map((source) => relative(ROOT, resolvePath(dirname(file), source)));
    }),
  );
}

/** The source modules a run loads: the sources named by the source maps of the dist/ files it loads. */
async function modulesLoadedBy(args: string[], extraEnv: Env = {}, home?: string): Promise<string[]> {
  return [...new Set((await filesLoadedBy(args, extraEnv, home)).flat())];
}

const matching = (modules: string[], pattern: RegExp) => modules.filter((source) => pattern.test(source));

describe('start-up loads only what a command uses', () => {
  it('--version loads main.js alone: not commander, not a declaration of any command', async () => {
    // dist/esm/…: esbuild's own helpers, which its chunks share.
    expect((await modulesLoadedBy(['--version'])).filter((source) => !source.startsWith('dist/'))).toEqual([
      'src/cli/main.ts',
      'package.json',
    ]);
    // Anything more on the line is the program's to parse: the program is loaded, and the start path with it.
    const modules = await modulesLoadedBy(['--version', '--no-color']);
    expect(matching(modules, /node_modules\/commander\//).length).toBeGreaterThan(0);
    // zod/mini comes with the store, whose lines in another form its schema checks; zod classic never.
    expect(matching(modules, /node_modules\/(zod\/v4\/classic|conf|ajv|undici|chalk|proper-lockfile)\//)).toEqual([]);
    // import/formats.ts is the table of formats the import command's flags accept, csv-text.ts how
    // list writes CSV: no dependencies.
    expect(matching(modules, /src\/(server|client|import\/(?!formats\.ts|csv-text\.ts))/)).toEqual([]);
    expect(matching(modules, /\/run\.ts$/)).toEqual(['src/cli/commands/get/run.ts', 'src/cli/commands/list/run.ts']);
  });

  it('get --local runs on the start path: program, store and run in one file (build-start-path.mjs)', async () => {
    const files = await filesLoadedBy(['get', '--local', '--id', '1']);
    const start = files.find((sources) => sources.includes('src/cli/run-process.ts')) ?? [];
    for (const module of [
      'src/store/file/file-store.ts',
      'src/cli/commands/get/run.ts',
      'src/cli/commands/create/command.ts',
    ])
      expect(start).toContain(module);
    expect(matching(start, /node_modules\/commander\//).length).toBeGreaterThan(0);
    // main.js, esbuild's helpers, the version, the start path, and a stub for each import() on the way (the program,
    // get's run).
    expect(files.length).toBeLessThanOrEqual(6);
  });

  it(
    'get --local and list --local load the store and zod/mini (a line in another form is checked by its schema), ' +
      'not zod classic',
    async () => {
      const home = await tempDir();
      writeFileSync(join(home, 'store.json.journal'), '{"id":1,"name":"Fern"}\n{ "id": 2, "name": "by hand" }\n');
      for (const args of [
        ['get', '--local', '--id', '2'],
        ['list', '--local', '--limit', '10'],
      ]) {
        const modules = await modulesLoadedBy(args, {}, home);
        expect(modules, args.join(' ')).toContain('src/store/file/file-store.ts');
        expect(modules, args.join(' ')).toContain('src/core/schemas.ts');
        const others = /node_modules\/(undici|conf|ajv|chalk|zod\/v4\/classic)\/|src\/core\/validate\.ts|node:http/;
        expect(matching(modules, others), args.join(' ')).toEqual([]);
      }
    },
  );

  it('create --local loads the store and zod/mini for its flags, not the HTTP stack or the server', async () => {
    const modules = await modulesLoadedBy(['create', '--local', '--id', '1', '--name', 'Fern']);
    expect(modules).toContain('src/store/file/file-store.ts');
    // Its flags are checked by the NewPlant schema (core/schemas.ts), as its floor assumes.
    expect(modules).toContain('src/core/schemas.ts');
    expect(matching(modules, /node_modules\/zod\/v4\/mini\//).length).toBeGreaterThan(0);
    const others = /node_modules\/(undici|conf|ajv|chalk|zod\/v4\/classic)\/|src\/core\/validate\.ts/;
    expect(matching(modules, others)).toEqual([]);
    expect(matching(modules, /src\/(server|client)\//)).toEqual([]);
  });

  it('a remote create uses node:http: not the undici package or the server', async () => {
    const modules = await modulesLoadedBy([
      'create',
      '--id',
      '1',
      '--name',
      'Fern',
      '--base-url',
      'http://127.0.0.1:1',
      '--token',
      't',
    ]);
    expect(modules).toContain('src/client/http-client.ts');
    // The store's code is on the start path, loaded with the program (build-start-path.mjs); the server's is not.
    expect(matching(modules, /node_modules\/undici\/|src\/server\/|proper-lockfile|write-file-atomic/)).toEqual([]);
    // Its flags and the service's answers are checked by the schemas (core/schemas.ts): zod's mini build only.
    expect(modules).toContain('src/core/schemas.ts');
    expect(matching(modules, /node_modules\/zod\/v4\/classic\/|src\/core\/validate\.ts/)).toEqual([]);
  });

  it('a remote create, config file included, reads without node:fs/promises (~0.7 ms to load)', async () => {
    const home = await tempDir();
    mkdirSync(join(home, 'config'));
    writeFileSync(join(home, 'config/config.json'), JSON.stringify({ 'base-url': 'http://127.0.0.1:1', token: 't' }));
    const { builtins } = await loadedBy(['create', '--id', '1', '--name', 'Fern'], {}, home);
    expect(builtins).toContain('node:http');
    expect(builtins).not.toContain('node:fs/promises');
  });

  const remoteCreate = ['create', '--id', '1', '--name', 'Fern', '--base-url', 'http://127.0.0.1:1', '--token', 't'];

  it('a remote create loads undici where a proxy is to be used, for its tunnel', async () => {
    const modules = await modulesLoadedBy(remoteCreate, { HTTP_PROXY: 'http://127.0.0.1:1' });
    expect(modules).toContain('src/client/proxy-tunnel.ts');
    expect(matching(modules, /node_modules\/undici\//).length).toBeGreaterThan(0);
  });

  it('a remote create loads no undici where no proxy is for its host (NO_PROXY names it; https only)', async () => {
    const proxy = 'http://127.0.0.1:1';
    for (const env of [{ HTTP_PROXY: proxy, NO_PROXY: '127.0.0.1' }, { HTTPS_PROXY: proxy }]) {
      const modules = await modulesLoadedBy(remoteCreate, env);
      expect(modules).toContain('src/client/http-client.ts');
      expect(matching(modules, /node_modules\/undici\/|src\/client\/proxy-tunnel\.ts/)).toEqual([]);
    }
  });
});
