import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, finished, isolatedEnv } from '../helpers/cli-process.js';
import { fakeService } from '../helpers/fake-service.js';
import { tempDir } from '../helpers/temp.js';

const RECORDER = fileURLToPath(new URL('./fixtures/record-code-cache.cjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Compiled {
  filename: string;
  offered: boolean;
  rejected: boolean;
}

/** Runs `bin` with the recorder: its result, and how each file of dist/ was compiled. */
async function compiledBy(bin: string, args: string[], home: string, nodeFlags: string[] = []) {
  const log = join(home, 'compiled.json');
  const env = isolatedEnv(home, { PLANTS_TEST_CODE_CACHE_LOG: log, PLANTS_STORE: join(home, 'store.json'), PLANTS_TOKEN: 't' });
  const result = await finished(spawn(process.execPath, [...nodeFlags, '--require', RECORDER, bin, ...args], { env }));
  const compiled = (JSON.parse(await readFile(log, 'utf8')) as Compiled[]).filter((entry) => entry.filename.includes('/dist/'));
  return { ...result, compiled };
}

/** bin/ and dist/ copied into a temp dir, timestamps kept, to change a built file. */
async function copyOfBuild(): Promise<{ home: string; bin: string; dist: string }> {
  const home = await tempDir();
  for (const dir of ['bin', 'dist']) cpSync(join(ROOT, dir), join(home, 'app', dir), { recursive: true, preserveTimestamps: true });
  return { home, bin: join(home, 'app/bin/plants.cjs'), dist: join(home, 'app/dist') };
}

describe('the code cache built with dist/', () => {
  it('is taken by V8 for every file of dist/ that --version, create --local and a remote create load', async () => {
    const service = await fakeService();
    try {
      for (const args of [['--version'], ['create', '--local', '--id', '1', '--name', 'Fern'], ['create', '--id', '2', '--name', 'Fern', '--base-url', service.url]]) {
        const { code, compiled } = await compiledBy(BIN, args, await tempDir());
        expect(code).toBe(0);
        expect(compiled.length).toBeGreaterThan(0);
        expect(compiled.filter((file) => !file.offered || file.rejected)).toEqual([]);
        expect(compiled.map((file) => file.filename)).toContain(join(ROOT, 'dist/cli/process-context.js'));
      }
    } finally {
      await service.close();
    }
  });

  it('is not used for a file changed since the build, even one of the same length (V8 would take it)', async () => {
    const { home, bin, dist } = await copyOfBuild();
    const chunks = join(dist, 'chunks');
    // The create command's output, in whichever chunk esbuild put it.
    const marker = '("Created")} plant';
    const renderer = readdirSync(chunks).find((name) => name.endsWith('.js') && readFileSync(join(chunks, name), 'utf8').includes(marker));
    expect(renderer).toBeDefined();
    const file = join(chunks, renderer as string);
    writeFileSync(file, readFileSync(file, 'utf8').replace(marker, '("Planted")} plant'));
    const { code, stdout, compiled } = await compiledBy(bin, ['create', '--local', '--id', '1', '--name', 'Fern'], home);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Planted plant 1 "Fern"/);
    expect(compiled.find((entry) => entry.filename === file)).toEqual({ filename: file, offered: false, rejected: false });
  });

  it('a damaged cache is rejected, and the command runs as it would without one', async () => {
    const { home, bin, dist } = await copyOfBuild();
    writeFileSync(join(dist, 'code-cache/cli/process-context.js.bin'), Buffer.alloc(4096, 7));
    const { code, stdout, stderr, compiled } = await compiledBy(bin, ['--version'], home);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`, stderr: '' });
    expect(compiled.find((entry) => entry.filename === join(dist, 'cli/process-context.js'))).toMatchObject({ offered: true, rejected: true });
  });

  it('gives a file of dist/ the require Node would: resolve, cache and main included', async () => {
    const { home, dist } = await copyOfBuild();
    writeFileSync(
      join(dist, 'chunks/probe.js'),
      `console.log(JSON.stringify({ main: require.main.filename, resolved: require.resolve('./probe.js'), cached: __filename in require.cache, loaded: typeof require('node:path').join }));\n`,
    );
    const probe = (useCache: boolean) => `${useCache ? "require('../dist/cli/code-cache.js').useCodeCache();\n" : ''}require('../dist/chunks/probe.js');\n`;
    writeFileSync(join(home, 'app/bin/with-cache.cjs'), probe(true));
    writeFileSync(join(home, 'app/bin/without.cjs'), probe(false));
    const run = async (bin: string) => (await finished(spawn(process.execPath, [join(home, 'app/bin', bin)], { env: isolatedEnv(home) }))).stdout;
    const withCache = await run('with-cache.cjs');
    expect(JSON.parse(withCache)).toMatchObject({ resolved: join(dist, 'chunks/probe.js'), cached: true, loaded: 'function' });
    expect(withCache.replace('with-cache.cjs', 'without.cjs')).toBe(await run('without.cjs'));
  });

  it('is not used where source maps are on, so that stack traces point into src/ as Node maps them', async () => {
    const { code, compiled } = await compiledBy(BIN, ['--version'], await tempDir(), ['--enable-source-maps']);
    expect(code).toBe(0);
    expect(compiled).toEqual([]);
  });
});
