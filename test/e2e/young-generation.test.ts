import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SMALL_INPUT_BYTES } from '../../src/cli/young-generation.js';
import { BIN, exited, finished, isolatedEnv, runPlants, startPlantsOn } from '../helpers/cli-process.js';
import { startServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * A Node with process.execve (22.15, 23.11, 24 and later): the one running the tests, else the
 * Node 24 the bench installs into .ci/node24, if it is there.
 */
function nodeWithExecve(): string | undefined {
  const node24 = fileURLToPath(new URL('../../.ci/node24/node_modules/.bin/node', import.meta.url));
  for (const node of [process.execPath, node24]) {
    if (existsSync(node) && execFileSync(node, ['-p', 'typeof process.execve'], { encoding: 'utf8' }).trim() === 'function') return node;
  }
  return undefined;
}

const node = nodeWithExecve();
const ndjson = (from: number, count: number) => Array.from({ length: count }, (_, i) => `{"id":${from + i},"name":"plant ${from + i}"}\n`).join('');
const RUN_AGAIN = /^plants: pid (\d+): running again in place with --max-semi-space-size=(8|16), to bound V8's young generation$/m;
const BOUNDED = /^plants: pid (\d+): V8's young generation bounded by Node's flags: --max-semi-space-size=(8|16)$/m;

/** Starts plants on the Node with execve, PLANTS_DEBUG set: it says what it does about V8's young generation. */
function start(args: string[], env: Record<string, string>) {
  if (node === undefined) throw new Error('no Node with process.execve here: .ci/run installs Node 24 into .ci/node24 before the tests');
  return { child: startPlantsOn(node, args, { ...env, PLANTS_DEBUG: '1' }) };
}

// Skipped only outside CI, on a Node 20 with no .ci/node24: CI installs it before every run.
describe.skipIf(node === undefined && process.env.CI !== 'true')('plants import bounds V8 young generation, on a Node with execve', () => {
  it('runs again in place, the same process, Node given the bound; the rows on stdin all imported', async () => {
    const home = await tempDir();
    const store = join(home, 'plants.json');
    const { child } = start(['import', '-', '--local', '--json'], isolatedEnv(home, { PLANTS_STORE: store }));
    const { code, stdout, stderr } = await finished(child, ndjson(1, 2_000));
    expect(code).toBe(0);
    // Said before execve, and again by the command run again, which finds the flag among its
    // Node's own (process.execArgv): both by the process the test started.
    const [, before, size] = RUN_AGAIN.exec(stderr) ?? [];
    const [, after, sizeAfter] = BOUNDED.exec(stderr) ?? [];
    expect({ before, after, sizeAfter }).toEqual({ before: String(child.pid), after: String(child.pid), sizeAfter: size });
    expect(stderr.match(/running again/g)).toHaveLength(1);
    expect(JSON.parse(stdout).counts).toMatchObject({ read: 2_000, created: 2_000 });
    expect((await storedPlants(store)).size).toBe(2_000);
  });

  it('keeps its exit code, remote too: a row that fails is exit 1', async () => {
    const home = await tempDir();
    const server = await startServer(home);
    try {
      // Piped: a small file would not run again (see below).
      const { child } = start(['import', '-'], isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token }));
      const { code, stderr } = await finished(child, ndjson(1, 3) + ndjson(2, 1));
      expect(code).toBe(1);
      expect(stderr).toMatch(RUN_AGAIN);
      expect(stderr).toContain(': 3 created, 0 skipped, 1 failed');
    } finally {
      await server.stop();
    }
  });

  it('takes a SIGINT as ever once run again: the rows read stored, exit 130', async () => {
    const home = await tempDir();
    const store = join(home, 'plants.json');
    const { child } = start(['import', '-', '--format', 'ndjson', '--local', '--json'], isolatedEnv(home, { PLANTS_STORE: store }));
    const result = exited(child);
    child.stdin?.write(ndjson(0, 15_000));
    // The first batch of 10,000 is in the journal: run again, under way, waiting on the pipe.
    await waitFor('the first batch', () => existsSync(`${store}.journal`));
    child.kill('SIGINT');
    const { code, signal, stdout, stderr } = await result;
    expect({ code, signal }).toEqual({ code: 130, signal: null });
    expect(stderr).toMatch(RUN_AGAIN);
    expect(stderr).toContain('SIGINT: finishing the rows read so far');
    expect(JSON.parse(stdout).counts.created).toBeGreaterThanOrEqual(10_000);
  });

  it('runs again for a file of 4 MiB or more, not for a smaller one, nor for stdin redirected from one or a device', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') });
    const small = join(home, 'small.ndjson');
    await writeFile(small, ndjson(1, 3));
    const ran = await finished(start(['import', small, '--local'], env).child);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(/V8's young generation as Node sizes it: an input of \d+ bytes does not grow it much\n/);
    expect(ran.stderr).not.toContain('running again');
    // `plants import - < small.ndjson`: its ids are stored already (exit 1), which is not the point.
    const fd = openSync(small, 'r');
    const redirected = spawn(node as string, [BIN, 'import', '-', '--local'], { env: { ...env, PLANTS_DEBUG: '1' }, stdio: [fd, 'pipe', 'pipe'] });
    closeSync(fd);
    const fromStdin = await exited(redirected);
    expect(fromStdin.code).toBe(1);
    expect(fromStdin.stderr).toMatch(/an input of \d+ bytes does not grow it much\n/);
    // Nor from a device (/dev/null here; a terminal too): only a pipe's size is not known.
    const fromDevice = await exited(spawn(node as string, [BIN, 'import', '-', '--local'], { env: { ...env, PLANTS_DEBUG: '1' }, stdio: ['ignore', 'pipe', 'pipe'] }));
    expect(fromDevice.stderr).toMatch(/an input of 0 bytes does not grow it much\n/);
    const big = join(home, 'big.ndjson');
    // Just over 4 MiB of rows.
    await writeFile(big, ndjson(1_000, 125_000));
    expect(statSync(big).size).toBeGreaterThanOrEqual(SMALL_INPUT_BYTES);
    const bigRun = await finished(start(['import', big, '--local', '--dry-run'], env).child);
    expect(bigRun.code).toBe(0);
    expect(bigRun.stderr).toMatch(RUN_AGAIN);
  });

  it('does not run again where NODE_OPTIONS bounds it already, nor for --help', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') });
    const bounded = start(['import', '-', '--local'], { ...env, NODE_OPTIONS: '--max-semi-space-size=8' });
    const { code, stderr } = await finished(bounded.child, ndjson(1, 2));
    expect(code).toBe(0);
    expect(stderr).toContain("V8's young generation bounded by NODE_OPTIONS: --max-semi-space-size=8\n");
    expect(stderr).not.toContain('running again');
    const help = start(['import', '--help'], env);
    const helped = await finished(help.child);
    expect(helped.code).toBe(0);
    expect(helped.stderr).toBe('');
  });
});

describe.skipIf(node === undefined && process.env.CI !== 'true')('plants list bounds V8 young generation past ten pages, on a Node with execve', () => {
  const STORED = 10_500;

  /** `plants serve` on a store of plants 1 to 10,500: eleven pages. */
  async function served() {
    const home = await tempDir();
    const seeded = await runPlants(['import', '-', '--local', '--store', join(home, 'served.json')], isolatedEnv(home), ndjson(1, STORED));
    expect(seeded.code).toBe(0);
    const server = await startServer(home);
    return { server, env: isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token }) };
  }

  it('runs again in place once ten full pages come, and lists every plant once, in order', async () => {
    const { server, env } = await served();
    try {
      const ids = Array.from({ length: STORED }, (_, i) => String(i + 1));
      const { child } = start(['list'], env);
      const lines = await finished(child);
      expect(lines.code).toBe(0);
      expect(lines.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual(ids);
      const [, before] = RUN_AGAIN.exec(lines.stderr) ?? [];
      const [, after] = BOUNDED.exec(lines.stderr) ?? [];
      expect({ before, after }).toEqual({ before: String(child.pid), after: String(child.pid) });
      expect(lines.stderr.match(/running again/g)).toHaveLength(1);
      // What is written before the first page (CSV's header, JSON's bracket) is written once.
      const csv = await finished(start(['list', '--format', 'csv'], env).child);
      expect(csv.stderr).toMatch(RUN_AGAIN);
      expect(csv.stdout.split('\n').filter((line) => line === 'id,name,tag')).toHaveLength(1);
      expect(csv.stdout.trimEnd().split('\n')).toHaveLength(STORED + 1);
      const json = await finished(start(['list', '--json'], env).child);
      expect(json.stderr).toMatch(RUN_AGAIN);
      expect((JSON.parse(json.stdout) as { id: number }[]).map((plant) => String(plant.id))).toEqual(ids);
    } finally {
      await server.stop();
    }
  });

  it('runs once for a list of less than ten pages, a limit of ten pages, or --local', async () => {
    const { server, env } = await served();
    try {
      for (const [args, count] of [
        [['list', '--after', '1001'], 9_499],
        [['list', '--limit', '10000'], 10_000],
        [['list', '--local', '--store', server.store], STORED],
      ] as const) {
        const listed = await finished(start([...args], env).child);
        expect({ args, code: listed.code, lines: listed.stdout.trimEnd().split('\n').length }).toEqual({ args, code: 0, lines: count });
        expect(listed.stderr).not.toContain('running again');
      }
    } finally {
      await server.stop();
    }
  });
});
