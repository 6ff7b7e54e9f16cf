import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { BIN, isolatedEnv } from '../helpers/cli-process.js';
import { startServer } from '../helpers/serve-process.js';
import { canMount, smallFileSystem } from '../helpers/small-fs.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

// Output that cannot be written is no success: a script that sends a list to a file on a full
// disk, or a summary to /dev/full, must learn from the exit code (4) and stderr that it is lost.
// Only a reader that went away (EPIPE: `plants list | head -1`) is the quiet exit 0 it always was.

const ENOSPC = 'error: could not write to standard output: no space left on device (ENOSPC)\n';

/** Plants whose list is twice a small file system of 64 KiB and more, in every format. */
const PLANTS = Array.from({ length: 6000 }, (_, i): NewPlant => ({ id: BigInt(i), name: `plant ${i}`, tag: 'herb' }));

/** The real bin/plants.cjs with its stdout on the open file `stdout`; stderr captured. */
async function runInto(stdout: number, args: string[], env: Record<string, string>, input?: string): Promise<Ended> {
  const stdin = input === undefined ? 'ignore' : 'pipe';
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: [stdin, stdout, 'pipe'] });
  if (input !== undefined) child.stdin!.end(input);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stderr };
}

interface Ended {
  code: number | null;
  stderr: string;
}

/** A home with a store of `plants` in it, and the environment of a plants run there. */
async function homeWith(plants: NewPlant[]): Promise<{ home: string; env: Record<string, string> }> {
  const home = await tempDir();
  const store = join(home, 'plants.json');
  writeFileSync(store, encodeDatabase(plants));
  return { home, env: isolatedEnv(home, { PLANTS_STORE: store }) };
}

/** Runs with stdout on a file `name` of a fresh 64 KiB file system. */
async function ontoFullDisk(args: string[], env: Record<string, string>) {
  const file = openSync(join(smallFileSystem(64 * 1024), 'out'), 'w');
  try {
    return await runInto(file, args, env);
  } finally {
    closeSync(file);
  }
}

/** Runs with stdout on /dev/full: every write fails with ENOSPC. */
async function ontoDevFull(args: string[], env: Record<string, string>, input?: string) {
  const full = openSync('/dev/full', 'w');
  try {
    return await runInto(full, args, env, input);
  } finally {
    closeSync(full);
  }
}

const FORMATS: [string, string[]][] = [
  ['a line a plant', []],
  ['--json', ['--json']],
  ['--format ndjson', ['--format', 'ndjson']],
  ['--format csv', ['--format', 'csv']],
];

describe.runIf(canMount)('stdout on a file system that fills up', () => {
  it.each(FORMATS)('plants list --local %s: exit 4, ENOSPC said on stderr', async (_what, format) => {
    const { env } = await homeWith(PLANTS);
    const result = await ontoFullDisk(['list', '--local', ...format], env);
    expect(result).toMatchObject({ code: 4, stderr: ENOSPC });
  });

  it('plants list stops at the failed write: no plant after it is read', async () => {
    // The last plant has an empty tag, which CSV cannot carry: read, it would be named on stderr.
    const { env } = await homeWith([...PLANTS, { id: 6000n, name: 'last', tag: '' }]);
    expect(await ontoFullDisk(['list', '--local', '--format', 'csv'], env)).toMatchObject({ code: 4, stderr: ENOSPC });
  });

  it('plants list from a service: exit 4, ENOSPC said on stderr', async () => {
    const home = await tempDir();
    writeFileSync(join(home, 'served.json'), encodeDatabase(PLANTS));
    const server = await startServer(home);
    try {
      const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
      for (const [what, format] of FORMATS) {
        expect(await ontoFullDisk(['list', ...format], env), what).toMatchObject({ code: 4, stderr: ENOSPC });
      }
    } finally {
      await server.stop();
    }
  });
});

describe.runIf(process.platform === 'linux')('stdout on /dev/full', () => {
  it.each([
    ['get', ['get', '--local', '--id', '1']],
    ['get --json', ['get', '--local', '--id', '1', '--json']],
    ['list', ['list', '--local']],
    ['list --json', ['list', '--local', '--json']],
    ['create', ['create', '--local', '--id', '5', '--name', 'Oak']],
    ['update --json', ['update', '--local', '--id', '1', '--name', 'Ivy', '--json']],
    ['delete', ['delete', '--local', '--id', '2']],
    ['config path', ['config', 'path']],
    ['--help', ['--help']],
    ['list --help', ['list', '--help']],
    ['--version', ['--version']],
    ['completion bash', ['completion', 'bash']],
  ])('plants %s: exit 4, ENOSPC said on stderr', async (_what, args) => {
    const { env } = await homeWith(PLANTS.slice(0, 3));
    expect(await ontoDevFull(args, env)).toMatchObject({ code: 4, stderr: ENOSPC });
  });

  it('a --json failure document that cannot be written: the failure on stderr, exit 4', async () => {
    const { env } = await homeWith(PLANTS.slice(0, 3));
    const result = await ontoDevFull(['get', '--local', '--id', '99', '--json'], env);
    expect(result).toMatchObject({ code: 4, stderr: ENOSPC });
  });

  it('import --json: the rows are imported, the summary lost: exit 4', async () => {
    const { home, env } = await homeWith([]);
    const input = join(home, 'in.ndjson');
    writeFileSync(input, '{"id":1,"name":"Fern"}\n{"id":2,"name":"Oak"}\n');
    const result = await ontoDevFull(['import', input, '--local', '--json'], env);
    expect(result).toMatchObject({ code: 4, stderr: ENOSPC });
    expect([...(await storedPlants(env.PLANTS_STORE as string)).keys()]).toEqual([1n, 2n]);
  });

  it('import - --json, rows from standard input: exit 4', async () => {
    const { env } = await homeWith([]);
    const result = await ontoDevFull(['import', '-', '--local', '--json'], env, '{"id":1,"name":"Fern"}\n');
    expect(result).toMatchObject({ code: 4, stderr: ENOSPC });
  });

  it('delete --from --json: the ids are deleted, the summary lost: exit 4', async () => {
    const { home, env } = await homeWith(PLANTS.slice(0, 3));
    const ids = join(home, 'ids.txt');
    writeFileSync(ids, '0\n1\n');
    const result = await ontoDevFull(['delete', '--yes', '--local', '--from', ids, '--json'], env);
    expect(result).toMatchObject({ code: 4, stderr: ENOSPC });
    expect([...(await storedPlants(env.PLANTS_STORE as string)).keys()]).toEqual([2n]);
  });

  it('a refused create whose --json document is lost keeps no exit 1: exit 4', async () => {
    const { env } = await homeWith(PLANTS.slice(0, 3));
    const result = await ontoDevFull(['create', '--local', '--id', '1', '--name', 'Again', '--json'], env);
    expect(result).toMatchObject({ code: 4, stderr: ENOSPC });
  });
});

describe.runIf(process.platform === 'linux')('stderr that cannot be written', () => {
  /** Runs with stderr on /dev/full, stdout captured. */
  async function stderrOnDevFull(args: string[], env: Record<string, string>) {
    const full = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', full] });
      let stdout = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const [code] = (await once(child, 'close')) as [number | null];
      return { code, stdout };
    } finally {
      closeSync(full);
    }
  }

  it('a command that succeeded but could not say so on stderr exits 4 (import: its summary lost)', async () => {
    const { home, env } = await homeWith([]);
    const input = join(home, 'in.ndjson');
    writeFileSync(input, '{"id":1,"name":"Fern"}\n');
    expect(await stderrOnDevFull(['import', input, '--local'], env)).toEqual({ code: 4, stdout: '' });
    expect((await storedPlants(env.PLANTS_STORE as string)).size).toBe(1);
  });

  it('a command that failed already keeps its exit code', async () => {
    const { env } = await homeWith(PLANTS.slice(0, 3));
    expect(await stderrOnDevFull(['get', '--local', '--id', '99'], env)).toEqual({ code: 1, stdout: '' });
  });

  it('a command with nothing to say on stderr is not troubled by it', async () => {
    const { env } = await homeWith(PLANTS.slice(0, 3));
    const plant = '{\n  "id": 1,\n  "name": "plant 1",\n  "tag": "herb"\n}\n';
    expect(await stderrOnDevFull(['get', '--local', '--id', '1', '--json'], env)).toEqual({ code: 0, stdout: plant });
  });

  it('plants serve logging onto a full disk keeps serving, and says so by its exit code when it stops', async () => {
    const { home, env } = await homeWith([]);
    const full = openSync('/dev/full', 'w');
    const args = ['serve', '--port', '0', '--token', 'tok'];
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', full] });
    closeSync(full);
    const [line] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string];
    const statuses: number[] = [];
    for (const id of [1, 2, 3]) statuses.push(await post(`${line.trim()}/plants`, `{"id":${id},"name":"x"}`));
    expect(statuses).toEqual([200, 200, 200]);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(4);
    expect((await storedPlants(join(home, 'plants.json'))).size).toBe(3);
  });

  it('plants serve whose base URL line cannot be written keeps serving, and exits 4 when it stops', async () => {
    const { home, env } = await homeWith([]);
    const full = openSync('/dev/full', 'w');
    const args = ['serve', '--port', '0', '--token', 'tok'];
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let log = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const ended = once(child, 'exit');
    while (!/listening on (\S+),/.test(log)) {
      const exited = await Promise.race([once(child.stderr!, 'data').then(() => false), ended.then(() => true)]);
      if (exited) throw new Error(`plants serve did not start: ${log}`);
    }
    const url = /listening on (\S+),/.exec(log)![1] as string;
    expect(await post(`${url}/plants`, '{"id":1,"name":"x"}')).toBe(200);
    child.kill('SIGTERM');
    const [code] = (await ended) as [number];
    expect(code).toBe(4);
    expect(log).toContain(ENOSPC);
    expect((await storedPlants(join(home, 'plants.json'))).size).toBe(1);
  });
});

describe('a reader that went away (EPIPE) is no failure', () => {
  it.each([
    ['get', ['get', '--local', '--id', '1']],
    ['list --json', ['list', '--local', '--json']],
    ['list --format csv', ['list', '--local', '--format', 'csv']],
  ])('plants %s into a closed pipe: exit 0, nothing said', async (_what, args) => {
    const { env } = await homeWith(PLANTS);
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Its reader is gone before it writes a byte.
    child.stdout!.destroy();
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'close')) as [number | null];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });
});

/** POSTs `body` with the token `tok`; resolves to the status. */
function post(url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { authorization: 'Bearer tok', 'content-type': 'application/json' };
    const sent = request(url, { method: 'POST', headers }, (answer) => {
      answer.resume();
      resolve(answer.statusCode ?? 0);
    });
    sent.on('error', reject).end(body);
  });
}
