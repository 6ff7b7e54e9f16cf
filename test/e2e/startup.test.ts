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
  const child = spawn(process.execPath, ['--require', RECORDER, BIN, ...args], { env, stdio: ['ignore', output, output] });
  child.stdout?.resume();
  child.stderr?.resume();
  await new Promise((resolve) => child.on('close', resolve));
  const loaded = (await readFile(log, 'utf8')).trim().split('\n');
  const files = loaded.filter((path) => path.includes('/dist/'));
  expect(files.length).toBeGreaterThan(0);
  return { files, builtins: loaded.filter((name) => name.startsWith('node:')) };
}

/** The source modules a run loads: the sources named by the source maps of the dist/ files it loads. */
async function modulesLoadedBy(args: string[], extraEnv: Record<string, string> = {}): Promise<string[]> {
  const sources = new Set<string>();
  for (const file of (await loadedBy(args, extraEnv)).files) {
    const map = JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) sources.add(relative(ROOT, resolvePath(dirname(file), source)));
  }
  return [...sources];
}

const matching = (modules: string[], pattern: RegExp) => modules.filter((source) => pattern.test(source));

describe('start-up loads only what a command uses', () => {
  it('--version loads main.js alone: not commander, not a declaration of any command', async () => {
    // dist/esm/…: esbuild's own helpers, which its chunks share.
    expect((await modulesLoadedBy(['--version'])).filter((source) => !source.startsWith('dist/'))).toEqual(['src/cli/main.ts', 'package.json']);
    // Anything more on the line is the program's to parse.
    const modules = await modulesLoadedBy(['--version', '--no-color']);
    expect(matching(modules, /node_modules\/commander\//).length).toBeGreaterThan(0);
    expect(matching(modules, /node_modules\/(zod|conf|ajv|undici|chalk|lossless-json|proper-lockfile)\//)).toEqual([]);
    // import/formats.ts is the table of formats the import command's flags accept: no dependencies.
    expect(matching(modules, /src\/(server|client|store|import\/(?!formats\.ts))|\/run\.ts$/)).toEqual([]);
  });

  it('create --local loads the store but not the HTTP stack or the server', async () => {
    const modules = await modulesLoadedBy(['create', '--local', '--id', '1', '--name', 'Fern']);
    expect(modules).toContain('src/store/file-store.ts');
    expect(matching(modules, /node_modules\/(undici|conf|ajv|chalk)\//)).toEqual([]);
    expect(matching(modules, /src\/(server|client)\//)).toEqual([]);
  });

  it('a remote create uses node:http: not the undici package, the store or the server', async () => {
    const modules = await modulesLoadedBy(['create', '--id', '1', '--name', 'Fern', '--base-url', 'http://127.0.0.1:1', '--token', 't']);
    expect(modules).toContain('src/client/http-client.ts');
    expect(matching(modules, /node_modules\/undici\/|src\/(server|store)\/|proper-lockfile|write-file-atomic/)).toEqual([]);
  });

  it('a remote create, config file included, reads without node:fs/promises (~0.7 ms to load)', async () => {
    const home = await tempDir();
    mkdirSync(join(home, 'config'));
    writeFileSync(join(home, 'config/config.json'), JSON.stringify({ 'base-url': 'http://127.0.0.1:1', token: 't' }));
    const { builtins } = await loadedBy(['create', '--id', '1', '--name', 'Fern'], {}, home);
    expect(builtins).toContain('node:http');
    expect(builtins).not.toContain('node:fs/promises');
  });

  it('a remote create loads undici where a proxy variable is set', async () => {
    const modules = await modulesLoadedBy(['create', '--id', '1', '--name', 'Fern', '--base-url', 'http://127.0.0.1:1', '--token', 't'], { HTTPS_PROXY: 'http://127.0.0.1:1' });
    expect(modules).toContain('src/client/undici-client.ts');
    expect(matching(modules, /node_modules\/undici\//).length).toBeGreaterThan(0);
  });
});
