import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/json.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { testContext } from '../helpers/test-context.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { pattern } from '../helpers/pattern.js';

let server: RunningServer | undefined;
let fake: FakeService | undefined;
afterEach(async () => {
  await server?.stop('SIGKILL');
  await fake?.close();
  server = undefined;
  fake = undefined;
});

function ndjson(count: number): string {
  return (
    Array.from({ length: count }, (_, i) => `{"id":${i + 1},"name":"plant ${i + 1}","tag":"bulk"}`).join('\n') + '\n'
  );
}

/** The ids in a store, journal included (as after a server was killed). */
async function storedIds(path: string): Promise<Set<bigint>> {
  return new Set((await storedPlants(path)).keys());
}

describe('plants import (remote)', () => {
  it('stores all 20,000 rows in a real plants serve', async () => {
    const home = await tempDir();
    server = await startServer(home);
    const input = join(home, 'big.ndjson');
    await writeFile(input, ndjson(20_000));
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    const result = await runPlants(['import', input, '--json'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).counts).toEqual({
      read: 20_000,
      created: 20_000,
      skipped: 0,
      valid: 0,
      failed: 0,
      unknown: 0,
      notSent: 0,
    });
    expect((await storedIds(server.store)).size).toBe(20_000);
  });

  it('keeps int64 bounds exact on the wire, and skips duplicates with --on-conflict skip', async () => {
    const home = await tempDir();
    server = await startServer(home);
    const input = join(home, 'p.csv');
    await writeFile(
      input,
      'id,name,tag\n9223372036854775807,Max,\n-9223372036854775808,Min,x\n9223372036854775807,Again,\n',
    );
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    const first = await runPlants(['import', input, '--json'], env);
    expect(first.code).toBe(1);
    const summary = parseJson(first.stdout) as { failures: { id: { value: string }; error: { value: string } }[] };
    expect(summary.failures.map((f) => [f.id.value, f.error.value])).toEqual([['9223372036854775807', '1002']]);
    expect(await storedIds(server.store)).toEqual(new Set([9223372036854775807n, -9223372036854775808n]));
    const again = await runPlants(['import', input, '--on-conflict', 'skip', '--json'], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).counts).toMatchObject({ created: 0, skipped: 3 });
  });

  it('waits out 503 with Retry-After, then stores every row once', async () => {
    fake = await fakeService();
    const answered = new Map<string, number>();
    let refusals = 0;
    fake.answer((request) => {
      if (refusals < 20) {
        refusals += 1;
        return { status: 503, headers: { 'retry-after': '1' }, body: '{"error":1009,"message":"busy"}' };
      }
      const id = /"id":(\d+)/.exec(request.body)?.[1] ?? '';
      answered.set(id, (answered.get(id) ?? 0) + 1);
      return { status: 200, body: '{"name":"x"}' };
    });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    await writeFile(join(t.dir, 'p.ndjson'), ndjson(200));
    const started = Date.now();
    expect(await t.run('import', join(t.dir, 'p.ndjson'), '--concurrency', '8')).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(answered.size).toBe(200);
    expect([...answered.values()].every((n) => n === 1)).toBe(true);
    expect(t.stderr()).toContain(': 200 created, 0 skipped, 0 failed');
  });

  it('answers every request already sent before reporting input that fails part way (exit 2)', async () => {
    fake = await fakeService();
    fake.answer({ status: 200, body: '{"name":"x"}', delayMs: 50 });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    const rows = Array.from({ length: 30 }, (_, i) => `${i + 1},plant ${i + 1}`).join('\n');
    await writeFile(join(t.dir, 'p.csv'), `id,name\n${rows}\n31,"never closed\n`);
    expect(await t.run('import', join(t.dir, 'p.csv'), '--json')).toBe(2);
    const summary = JSON.parse(t.stdout());
    // The parser drops what it had buffered when it fails; every row it gave us is accounted for.
    expect(summary.counts.read).toBeGreaterThan(0);
    expect(summary.counts.created).toBe(summary.counts.read);
    expect(fake.requests).toHaveLength(summary.counts.created);
    expect(summary.stoppedBy.code).toBe('unreadable_input');
  });

  it('stops at once on a refused token (exit 3), sending no more', async () => {
    fake = await fakeService();
    fake.answer({ status: 401, body: '{"error":1006,"message":"no"}' });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'bad' } });
    await writeFile(join(t.dir, 'p.ndjson'), ndjson(5_000));
    expect(await t.run('import', join(t.dir, 'p.ndjson'), '--concurrency', '4', '--json')).toBe(3);
    const summary = JSON.parse(t.stdout());
    expect(fake.requests.length).toBeLessThanOrEqual(4);
    expect(summary.counts).toMatchObject({ read: 5_000, created: 0, notSent: 5_000 });
    expect(summary.stoppedBy).toMatchObject({ code: 'auth_refused' });
  });

  it('sends a plant again after a 503 but never after a 500, whose plant may be stored (exit 4, unknown)', async () => {
    fake = await fakeService();
    fake.answer({
      status: 500,
      body: '{"error":1013,"message":"internal error: the plant may or may not have been stored"}',
    });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    await writeFile(join(t.dir, 'p.ndjson'), ndjson(1));
    expect(await t.run('import', join(t.dir, 'p.ndjson'), '--json')).toBe(4);
    expect(fake.requests).toHaveLength(1);
    const summary = JSON.parse(t.stdout());
    expect(summary.counts).toMatchObject({ created: 0, unknown: 1, notSent: 0 });
    expect(summary.stoppedBy.message).toContain('may or may not have been stored');
    // Its summary does not say none was imported: the plant may have been.
    expect(await t.run('import', join(t.dir, 'p.ndjson'))).toBe(4);
    expect(t.stderr()).toMatch(
      pattern(
        /(^|\n)Imported 1 row into .*: 0 created, 0 skipped, 0 failed, /,
        /1 unknown \(sent, no answer: may or may not be created\)\n/,
      ),
    );
  });

  it('stops on an answer too big to be a Plant (exit 4), counting the rows sent as unknown', async () => {
    fake = await fakeService();
    fake.answer({ status: 200, body: 'x'.repeat(2 * 1024 * 1024) });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    await writeFile(join(t.dir, 'p.ndjson'), ndjson(3));
    expect(await t.run('import', join(t.dir, 'p.ndjson'), '--concurrency', '2', '--json')).toBe(4);
    const summary = JSON.parse(t.stdout());
    expect(summary.stoppedBy).toMatchObject({
      code: 'bad_response',
      message: 'the service answered HTTP 200 with a body over 1048576 bytes',
    });
    expect(summary.counts).toMatchObject({ created: 0, unknown: fake.requests.length });
  });

  it('stops when the service goes away (exit 4), with an account that matches the store', async () => {
    const home = await tempDir();
    server = await startServer(home);
    const input = join(home, 'big.ndjson');
    const rejects = join(home, 'rejects.ndjson');
    await writeFile(input, ndjson(30_000));
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    const running = runPlants(['import', input, '--json', '--rejects', rejects], env);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await server.stop('SIGKILL');
    const result = await running;
    expect(result.code).toBe(4);
    const summary = parseJson(result.stdout) as {
      counts: Record<string, { value: string }>;
      stoppedBy: { code: string };
    };
    const count = (key: string) => Number(summary.counts[key]!.value);
    expect(['unreachable', 'timeout']).toContain(summary.stoppedBy.code);
    expect(count('read')).toBe(30_000);
    expect(count('created') + count('unknown') + count('notSent') + count('failed')).toBe(30_000);
    expect(count('created')).toBeGreaterThan(0);
    const stored = await storedIds(server.store);
    // Every 200 is in the store; beyond those, only rows whose answer never came may be.
    expect(stored.size).toBeGreaterThanOrEqual(count('created'));
    expect(stored.size).toBeLessThanOrEqual(count('created') + count('unknown'));
    // The rejects file holds exactly the rows not known to be created: re-importing them with
    // --on-conflict skip on a restarted server completes the import.
    server = await startServer(home);
    const envAgain = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    const retry = await runPlants(['import', rejects, '--on-conflict', 'skip', '--format', 'ndjson'], envAgain);
    expect(retry.code).toBe(0);
    expect((await storedIds(server.store)).size).toBe(30_000);
  });
});
