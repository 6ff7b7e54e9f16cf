import { openSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Pool, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { DEFAULT_CHECKPOINT_AT } from '../../src/store/file/file-store.js';
import { NODE_FS } from '../../src/fs/file-system.js';
import { readDatabaseWhole } from '../../src/store/file/normalise.js';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { adminUrl, startServer, type RunningServer } from '../helpers/serve-process.js';
import { canMount, fillUntil, smallFileSystem } from '../helpers/small-fs.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';
import { checkpointedStore, storedPlants } from '../helpers/stored-plants.js';
import { pattern } from '../helpers/pattern.js';

// A real file system that fills up while plants writes: every plant plants said it stored must be
// there afterwards, and the store must load. (The same faults injected through an fs seam, where
// no file system can be mounted: test/store/short-writes.test.ts.)

const plants = (count: number, from = 0): NewPlant[] =>
  Array.from({ length: count }, (_, i) => ({
    id: BigInt(from + i),
    name: `plant number ${from + i}`,
    tag: 'seedling',
  }));

/** A store of `count` plants on a fresh small file system, with about `free` bytes left free. */
async function fullStore(
  size: number,
  count: number,
  free: number,
  journal = '',
): Promise<{ dir: string; store: string }> {
  const dir = smallFileSystem(size);
  const store = join(dir, 'plants.json');
  // Made where it is used: its index vouches for the file by its inode, which a copy does not keep.
  await checkpointedStore(store, plants(count));
  if (journal !== '') writeFileSync(`${store}.journal`, journal);
  fillUntil(dir, free);
  return { dir, store };
}

const journalOf = (lines: NewPlant[]) =>
  lines.map((plant) => `{"id":${plant.id},"name":"${plant.name}","tag":"${plant.tag}"}\n`).join('');

/** Lines that pad a journal to whole pages. */
const PADDING_LINES = 5;

/**
 * A journal of `count` plants and PADDING_LINES more, their names as long as it takes for the
 * journal to end on a page boundary (4 KiB): where a file system is full, not one more line fits.
 */
function pageFilling(count: number, from: number): string {
  const journal = journalOf(plants(count, from));
  // A padding line is 41 bytes and its name (ids of 6 digits), at most 1,000 characters.
  const short = 4096 - (Buffer.byteLength(journal) % 4096);
  const lacking = short < PADDING_LINES * 41 ? short + 4096 : short;
  const padding = Array.from({ length: PADDING_LINES }, (_, i) => {
    const name = 'x'.repeat(Math.floor(lacking / PADDING_LINES) - 41 + (i === 0 ? lacking % PADDING_LINES : 0));
    return `{"id":${from + count + i},"name":"${name}","tag":"seedling"}\n`;
  });
  const text = journal + padding.join('');
  if (Buffer.byteLength(text) % 4096 !== 0)
    throw new Error(`the journal is ${Buffer.byteLength(text)} bytes, not whole pages`);
  return text;
}

async function storedIds(store: string): Promise<Set<bigint>> {
  return new Set((await storedPlants(store)).keys());
}

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  servers = [];
});

describe.skipIf(!canMount)('a full disk loses nothing (a real tmpfs)', () => {
  it.each([
    ['with no room for a line', undefined],
    [
      'with no room for a line, where the journal must first be folded into the store file (the fold fails, ' +
        'then the append)',
      10_000,
    ],
  ])('create --local into a 5,000-plant store %s fails with exit 4 and loses nothing', async (_how, journalLines) => {
    const { dir, store } = await fullStore(1024 * 1024, 5_000, 1024 * 1024);
    // Its last page full too: no line fits in it.
    if (journalLines !== undefined) writeFileSync(`${store}.journal`, pageFilling(journalLines, 100_000));
    fillUntil(dir, 0);
    const home = await tempDir();
    const result = await runPlants(
      ['create', '--local', '--store', store, '--id', '-1', '--name', 'one too many'],
      isolatedEnv(home),
    );
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^error: could not (write|append to) the store .*\(ENOSPC\)/);
    expect(result.stderr).toMatch(
      pattern(
        /^error: could not (write|append to) the store .*: no space left on device \(ENOSPC\)\n/,
        /hint: free some space on its file system and try again: the store is as it was\n$/,
      ),
    );
    expect(result.code).toBe(4);
    const ids = await storedIds(store);
    expect(ids.size).toBe(5_000 + (journalLines === undefined ? 0 : journalLines + PADDING_LINES));
    expect(ids.has(4_999n)).toBe(true);
    expect(ids.has(-1n)).toBe(false);
  });

  it(
    'create --local at the fold threshold with 64 KiB free: the fold does not fit, its line does: created, exit ' +
      '0, the store file untouched',
    async () => {
      const { dir, store } = await fullStore(1024 * 1024, 5_000, 1024 * 1024);
      writeFileSync(`${store}.journal`, journalOf(plants(10_000, 100_000)));
      const file = readFileSync(store);
      fillUntil(dir, 64 * 1024);
      const result = await runPlants(
        ['create', '--local', '--store', store, '--id', '-1', '--name', 'one too many'],
        isolatedEnv(await tempDir()),
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(readFileSync(store)).toEqual(file);
      expect(readdirSync(dir).sort()).toEqual(['filler', 'plants.json', 'plants.json.index', 'plants.json.journal']);
      const ids = await storedIds(store);
      expect(ids.size).toBe(15_001);
      expect(ids.has(4_999n)).toBe(true);
      expect(ids.has(-1n)).toBe(true);
    },
  );

  it('create --local with room for its line only: created, exit 0, every plant there', async () => {
    const { store } = await fullStore(1024 * 1024, 5_000, 4 * 1024);
    const result = await runPlants(
      ['create', '--local', '--store', store, '--id', '-1', '--name', 'just fits'],
      isolatedEnv(await tempDir()),
    );
    expect(result.code).toBe(0);
    const ids = await storedIds(store);
    expect(ids.size).toBe(5_001);
  });

  it('config set and login on a full disk: exit 4, no space left said in words, config.json as it was', async () => {
    const dir = smallFileSystem(256 * 1024);
    const env = isolatedEnv(await tempDir(), { PLANTS_CONFIG_DIR: dir });
    expect((await runPlants(['config', 'set', 'timeout', '5'], env)).code).toBe(0);
    const before = readFileSync(join(dir, 'config.json'), 'utf8');
    fillUntil(dir, 0);
    for (const argv of [
      ['config', 'set', 'timeout', '7'],
      ['login', '--no-check', '--token', 'token-on-a-full-disk', '--base-url', 'http://127.0.0.1:9'],
    ]) {
      const result = await runPlants(argv, env);
      expect(result.stderr).toBe(
        `error: could not write the config file ${join(dir, 'config.json')}: no space left on device (ENOSPC)\n` +
          'hint: free some space on its file system and try again: the config file is as it was\n',
      );
      expect(result.code).toBe(4);
      expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual(JSON.parse(before));
      expect(readdirSync(dir).sort()).toEqual(['config.json', 'filler']);
    }
    const json = await runPlants(['config', 'set', 'timeout', '7', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 2013, code: 'config_io' });
  });

  it('serve with no token, its data directory full: exit 4, no space left said, no temporary file left', async () => {
    const dir = smallFileSystem(256 * 1024);
    fillUntil(dir, 0);
    const home = await tempDir();
    const result = await runPlants(
      ['serve', '--port', '0', '--store', join(home, 'plants.json')],
      isolatedEnv(home, { XDG_DATA_HOME: dir }),
    );
    const tokenFile = join(dir, 'plants', 'server-token');
    expect(result.stderr).toBe(
      `error: could not write the server token file ${tokenFile}: no space left on device (ENOSPC)\n` +
        'hint: free some space on its file system and try again: the server token file is as it was\n',
    );
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(readdirSync(join(dir, 'plants'))).toEqual([]);
  });

  it('serve whose store is out on a full disk is ready again once there is room, with no request sent', async () => {
    const { dir, store } = await fullStore(1024 * 1024, 100, 0);
    const server = await startServer(await tempDir(), ['--store', store, '--admin-port', '0']);
    servers.push(server);
    const admin = await adminUrl(server);
    const readyz = async () => {
      const answer = await request(`${admin}/readyz`, { reset: true });
      return { status: answer.statusCode, body: await answer.body.text() };
    };
    expect((await readyz()).status).toBe(200);
    // The journal's last block may take a line or two: creates until one is refused.
    let status = 200;
    for (let id = 1_000; status === 200 && id < 1_200; id += 1) {
      const answer = await request(`${server.url}/plants`, {
        method: 'POST',
        reset: true,
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: `{"id":${id},"name":"plant number ${id}"}`,
      });
      await answer.body.text();
      status = answer.statusCode;
    }
    expect(status).toBe(503);
    expect(await readyz()).toEqual({ status: 503, body: expect.stringContaining('"status":"not_ready"') });
    // A load balancer sends nothing to an instance that is not ready: no write will come to end the outage.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect((await readyz()).status).toBe(503);
    unlinkSync(join(dir, 'filler'));
    await waitFor('/readyz to answer 200', async () => (await readyz()).status === 200);
    expect(server.log()).toMatch(/plants serve: the store takes writes again; \d+ requests? (was|were) refused/);
    // The probes' files are gone.
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('import --local of 200,000 rows into 2 MiB: every row it counts as created is stored, exit 4', async () => {
    const dir = smallFileSystem(2 * 1024 * 1024);
    const input = join(await tempDir(), 'rows.ndjson');
    writeFileSync(
      input,
      `${plants(200_000)
        .map((plant) => `{"id":${plant.id},"name":"${plant.name}","tag":"${plant.tag}"}`)
        .join('\n')}\n`,
    );
    const store = join(dir, 'plants.json');
    const result = await runPlants(
      ['import', input, '--local', '--store', store, '--json'],
      isolatedEnv(await tempDir()),
    );
    expect(result.code).toBe(4);
    const summary = JSON.parse(result.stdout) as {
      counts: { created: number; read: number; notSent: number; unknown: number };
      stoppedBy: { code: string };
    };
    expect(summary.stoppedBy.code).toBe('store_io');
    expect(summary.counts.unknown).toBe(0);
    const ids = await storedIds(store);
    expect(ids.size).toBe(summary.counts.created);
    for (let id = 0n; id < BigInt(summary.counts.created); id += 1n)
      if (!ids.has(id)) throw new Error(`plant ${id} was counted as created but is not stored`);
  });

  // Folds come when the journal outgrows DEFAULT_CHECKPOINT_AT lines and the store file's plants. The
  // folding case starts from a journal 500 lines short of that, of deletions of ids never stored
  // (~2 MB, which fold to nothing): its fold is small and fits in the 300 KiB left, frees the
  // journal's room, and the appends after it fill the disk long before the next fold is due.
  it.each([
    ['appending to the journal', 30_000, 200 * 1024, false],
    ['folding the journal into the store file', 2_000, 300 * 1024, true],
  ])(
    'serve (%s) on a store of %i plants: every plant answered 200 is stored, the rest get 503 with an Error body',
    async (_how, count, free, folds) => {
      const journal = folds
        ? Array.from({ length: DEFAULT_CHECKPOINT_AT - 500 }, (_, i) => `{"delete":${2_000_000 + i}}\n`).join('')
        : '';
      const { dir, store } = await fullStore(8 * 1024 * 1024, count, free, journal);
      const home = await tempDir();
      const server = await startServer(home, ['--store', store]);
      servers.push(server);
      const pool = new Pool(server.url, { connections: 16 });
      const acknowledged: bigint[] = [];
      const refusals = new Map<string, number>();
      let next = 1_000_000;
      const worker = async () => {
        while (next < 1_100_000 && (refusals.get('503') ?? 0) < 200) {
          const id = BigInt(next++);
          const answer = await pool.request({
            method: 'POST',
            path: '/plants',
            headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
            body: `{"id":${id},"name":"plant number ${id}","tag":"seedling"}`,
          });
          const body = await answer.body.text();
          if (answer.statusCode === 200) acknowledged.push(id);
          else {
            const key = String(answer.statusCode);
            refusals.set(key, (refusals.get(key) ?? 0) + 1);
            expect(JSON.parse(body)).toMatchObject({ error: expect.any(Number), message: expect.any(String) });
            if (answer.statusCode === 503) expect(answer.headers['retry-after']).toBe('1');
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
      // Room again: the next plant is stored, and the log says the outage is over.
      unlinkSync(join(dir, 'filler'));
      const again = await pool.request({
        method: 'POST',
        path: '/plants',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: '{"id":-1,"name":"after the outage"}',
      });
      await again.body.text();
      expect(again.statusCode).toBe(200);
      acknowledged.push(-1n);
      // The outage is over once a write went through and nothing was refused for a second.
      await waitFor('the log to say the store takes writes again', () =>
        server.log().includes('the store takes writes again'),
      );
      await pool.close();
      await server.stop('SIGTERM');
      expect([...refusals.keys()]).toEqual(['503']);
      // Under --quiet, a line as the outage starts (its error, then what the server does about it)
      // and one as it ends, counting the requests refused meanwhile: not a line per refused request,
      // nor a pair each time a small write still fits in the journal's last block of a full disk.
      const log = server.log().split('\n');
      // Each error names the request that met it, as that request's answer and log line do.
      const errors = log.filter((line) =>
        pattern(
          / error: could not (write|append to) the store .*: /,
          /no space left on device \(ENOSPC\) \(request-id=[\w-]+\)$/,
        ).test(line),
      );
      const starts = log.filter((line) =>
        line.endsWith(
          ' plants serve: answering 503 until the store takes a write again; the requests refused meanwhile ' +
            'are counted, not logged',
        ),
      );
      const ends = log.flatMap(
        (line) =>
          /plants serve: the store takes writes again; (\d+) requests? (?:was|were) refused with 503 meanwhile$/.exec(
            line,
          )?.[1] ?? [],
      );
      expect(starts).toHaveLength(1);
      expect(ends).toEqual([String(refusals.get('503'))]);
      // One error line, and one more only where the cause changed (an append, then a fold).
      expect(errors.length).toBeGreaterThan(0);
      expect(log.filter((line) => line.includes(' error: ')).length).toBe(errors.length);
      const causes = errors.map((line) => line.replace(/^\S+ error: /, '').replace(/ \(request-id=[\w-]+\)$/, ''));
      for (let i = 1; i < causes.length; i += 1) expect(causes[i]).not.toBe(causes[i - 1]);
      // Before, a line per refused request: more lines than 503s.
      expect(log.length).toBeLessThan((refusals.get('503') ?? 0) / 4);
      expect(acknowledged.length).toBeGreaterThan(0);
      const ids = await storedIds(store);
      const lost = acknowledged.filter((id) => !ids.has(id));
      expect(lost).toEqual([]);
      expect(ids.has(BigInt(count - 1))).toBe(true);
      // Folded or not, as the case says: the store file alone holds the plants a fold put in it.
      const file = readDatabaseWhole(NODE_FS, openSync(store, 'r'), store, statSync(store).size);
      try {
        if (folds) {
          expect(file.plants).toBeGreaterThan(count);
          expect(readFileSync(`${store}.journal`, 'utf8')).not.toContain('"delete"');
        } else expect(file.plants).toBe(count);
      } finally {
        file.close();
      }
    },
  );
});
