import { spawn } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, finished, isolatedEnv } from '../helpers/cli-process.js';
import { fakeService } from '../helpers/fake-service.js';
import { tempDir } from '../helpers/temp.js';
import { packSource } from '../../src/cli/fast-start/node-modules.js';

const RECORDER = fileURLToPath(new URL('./fixtures/record-compiles.cjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Compiled {
  filename: string;
  offered: boolean;
  rejected: boolean;
}

/** Runs `bin` with the recorder: its result, and how each file of dist/ was compiled. */
async function compiledBy(bin: string, args: string[], home: string, nodeFlags: string[] = []) {
  const log = join(home, 'compiled.json');
  const env = isolatedEnv(home, { PLANTS_TEST_COMPILE_LOG: log, PLANTS_STORE: join(home, 'store.json'), PLANTS_TOKEN: 't' });
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

type PackIndex = Record<string, { pack: string; size: number }>;

const indexOf = (dist: string) => JSON.parse(readFileSync(join(dist, 'packs/index.json'), 'utf8')) as PackIndex;

/** The pack a file of dist/ is in, by dist/packs/index.json. */
function packOf(dist: string, file: string): string {
  const packed = indexOf(dist)[file];
  expect(packed).toBeDefined();
  return join(dist, 'packs', packed?.pack as string);
}

/** Writes files into dist/ and a pack of them, as build.mjs does, and adds them to the index. */
function addPack(dist: string, name: string, files: Record<string, string>): void {
  for (const [file, code] of Object.entries(files)) writeFileSync(join(dist, file), code);
  writeFileSync(join(dist, 'packs', name), packSource(Object.entries(files)));
  const added = Object.fromEntries(Object.entries(files).map(([file, code]) => [file, { pack: name, size: Buffer.byteLength(code) }]));
  writeFileSync(join(dist, 'packs/index.json'), JSON.stringify({ ...indexOf(dist), ...added }));
}

/** The create command's output, in whichever file esbuild put it. */
const CREATED = '("Created")} plant';

/**
 * Changes "Created" to "Planted", keeping the length, in whichever of `files` has it, then runs a
 * local create, which must print the change: the file changed, and how dist/ was compiled.
 */
async function createdAfterChanging(files: string[], bin: string, home: string) {
  const file = files.find((candidate) => readFileSync(candidate, 'utf8').includes(CREATED));
  expect(file).toBeDefined();
  writeFileSync(file as string, readFileSync(file as string, 'utf8').replace(CREATED, '("Planted")} plant'));
  const { code, stdout, compiled } = await compiledBy(bin, ['create', '--local', '--id', '1', '--name', 'Fern'], home);
  expect(code).toBe(0);
  expect(stdout).toMatch(/^Planted plant 1 "Fern"/);
  return { file: file as string, compiled };
}

describe('the fast start of dist/: packs and a code cache', () => {
  it('--version, create --local and a remote create load their files from a few packs, each with a cache V8 takes', async () => {
    const service = await fakeService();
    try {
      for (const args of [['--version'], ['create', '--local', '--id', '1', '--name', 'Fern'], ['create', '--id', '2', '--name', 'Fern', '--base-url', service.url]]) {
        const { code, compiled } = await compiledBy(BIN, args, await tempDir());
        expect(code).toBe(0);
        const files = compiled.map((file) => file.filename);
        expect(files).toContain(packOf(join(ROOT, 'dist'), 'cli/process-context.js'));
        // Only packs: no file of dist/ compiled on its own.
        expect(files.filter((file) => !file.startsWith(join(ROOT, 'dist/packs/')))).toEqual([]);
        expect(files.length).toBeLessThanOrEqual(3);
        expect(compiled.filter((file) => !file.offered || file.rejected)).toEqual([]);
      }
    } finally {
      await service.close();
    }
  });

  it('a file changed since the build, even to the same length, runs as changed: neither its pack nor its cache is used', async () => {
    const { home, bin, dist } = await copyOfBuild();
    const { file, compiled } = await createdAfterChanging(Object.keys(indexOf(dist)).map((name) => join(dist, name)), bin, home);
    expect(compiled.find((entry) => entry.filename === file)).toEqual({ filename: file, offered: false, rejected: false });
  });

  it('a pack changed since the build, to the same length, runs as changed, without its cache (V8 would take it)', async () => {
    const { home, bin, dist } = await copyOfBuild();
    const packs = [...new Set(Object.values(indexOf(dist)).map((packed) => packed.pack))].map((name) => join(dist, 'packs', name));
    const { file, compiled } = await createdAfterChanging(packs, bin, home);
    expect(compiled.find((entry) => entry.filename === file)).toEqual({ filename: file, offered: false, rejected: false });
  });

  it('a damaged cache is rejected, and the command runs as it would without one', async () => {
    const { home, bin, dist } = await copyOfBuild();
    const pack = packOf(dist, 'cli/process-context.js');
    writeFileSync(join(dist, 'code-cache/packs', `${pack.slice(join(dist, 'packs').length + 1)}.bin`), Buffer.alloc(4096, 7));
    const { code, stdout, stderr, compiled } = await compiledBy(bin, ['--version'], home);
    expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
    expect(compiled.find((entry) => entry.filename === pack)).toMatchObject({ offered: true, rejected: true });
  });

  it('a pack that cannot be compiled, is empty or lacks a file is passed over: its files load one by one', async () => {
    for (const damage of ['({ "cli/process-context.js": function (', '', '({})']) {
      const { home, bin, dist } = await copyOfBuild();
      writeFileSync(packOf(dist, 'cli/process-context.js'), damage);
      const { code, stdout, stderr, compiled } = await compiledBy(bin, ['--version'], home);
      expect({ code, stdout, stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
      expect(compiled.map((entry) => entry.filename)).toContain(join(dist, 'cli/process-context.js'));
    }
  });

  it('a packed file deleted since the build is missing, as it would be without packs', async () => {
    const { home, bin, dist } = await copyOfBuild();
    const index = indexOf(dist);
    const file = Object.keys(index).find((name) => name.startsWith('chunks/') && index[name]?.pack === index['cli/process-context.js']?.pack);
    expect(file).toBeDefined();
    rmSync(join(dist, file as string));
    const { code, stderr } = await compiledBy(bin, ['--version'], home);
    expect(code).not.toBe(0);
    expect(stderr).toContain(`Cannot find module '../${file as string}'`);
  });

  it('gives a file of dist/, packed or not, the require, module and exports Node would', async () => {
    const { home, dist } = await copyOfBuild();
    // A probe, packed, requiring: a packed file that throws as it loads; two packed files that
    // require each other; a file that is not packed, which requires one of the two again.
    const probe = `
      const seen = { main: require.main.filename, resolved: require.resolve('./probe.js'), id: module.id, filename: __filename, dirname: __dirname,
        paths: module.paths.slice(0, 2), lookup: require.resolve.paths('x').slice(0, 2), extensions: Object.keys(require.extensions),
        parent: module.parent.filename, child: module.parent.children.includes(module), loaded: module.loaded,
        cached: require.cache[__filename] === module, exports: this === exports && exports === module.exports, builtin: typeof require('node:path').join };
      try { require('./probe-throws.js'); } catch (error) { seen.threw = error.message; }
      seen.throwsCached = require.resolve('./probe-throws.js') in require.cache;
      seen.throwsChild = module.children.some((child) => child.filename.endsWith('probe-throws.js'));
      seen.cycle = require('./probe-a.js');
      seen.cycleLoaded = require.cache[require.resolve('./probe-a.js')].loaded;
      seen.plain = require('./probe-plain.js');
      seen.children = module.children.map((child) => child.id.slice(__dirname.length + 1));
      console.log(JSON.stringify(seen));`;
    writeFileSync(
      join(dist, 'chunks/probe-plain.js'),
      `const b = require('./probe-b.js');
      module.exports = { b, loaded: module.loaded, cached: require.cache[__filename] === module, parent: module.parent.filename, children: module.children.map((child) => child.id.slice(__dirname.length + 1)) };`,
    );
    addPack(dist, 'probe.js', {
      'chunks/probe.js': probe,
      'chunks/probe-throws.js': "throw new Error('as it loads');",
      'chunks/probe-a.js': "exports.early = 1; const b = require('./probe-b.js'); exports.late = 2; exports.bSaw = b.sawA;",
      'chunks/probe-b.js': "exports.sawA = JSON.stringify(require('./probe-a.js'));",
    });
    const bin = (fast: boolean) => `${fast ? "require('../dist/cli/fast-start.js').fastStart();\n" : ''}require('../dist/chunks/probe.js');\n`;
    writeFileSync(join(home, 'app/bin/fast.cjs'), bin(true));
    writeFileSync(join(home, 'app/bin/plain.cjs'), bin(false));
    const run = async (name: string) => {
      const log = join(home, `${name}.json`);
      const env = isolatedEnv(home, { PLANTS_TEST_COMPILE_LOG: log });
      const { stdout } = await finished(spawn(process.execPath, ['--require', RECORDER, join(home, 'app/bin', `${name}.cjs`)], { env }));
      return { seen: stdout.replaceAll(`${name}.cjs`, 'BIN'), compiled: (JSON.parse(await readFile(log, 'utf8')) as Compiled[]).map((entry) => entry.filename) };
    };
    const fast = await run('fast');
    expect(JSON.parse(fast.seen)).toMatchObject({
      resolved: join(dist, 'chunks/probe.js'),
      cached: true,
      child: true,
      exports: true,
      builtin: 'function',
      threw: 'as it loads',
      throwsCached: false,
      throwsChild: false,
      cycle: { early: 1, late: 2, bSaw: '{"early":1}' },
      cycleLoaded: true,
      plain: { b: { sawA: '{"early":1}' }, children: ['probe-b.js'] },
      children: ['probe-a.js', 'probe-plain.js'],
    });
    // The probe and the files it requires came from their pack; the plain file was compiled on its own.
    expect(fast.compiled).toEqual([join(dist, 'packs/probe.js'), join(dist, 'chunks/probe-plain.js')]);
    const plain = await run('plain');
    expect(plain.compiled).toEqual([]);
    expect(fast.seen).toBe(plain.seen);
  });

  it('is off where source maps are on, so that stack traces point into src/ as Node maps them', async () => {
    const { code, compiled } = await compiledBy(BIN, ['--version'], await tempDir(), ['--enable-source-maps']);
    expect(code).toBe(0);
    expect(compiled).toEqual([]);
  });
});
