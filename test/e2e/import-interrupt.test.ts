import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exited, isolatedEnv, startPlants } from '../helpers/cli-process.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { startServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { importWaitingForLock } from '../helpers/lock-wait-import.js';
import { pattern } from '../helpers/pattern.js';

const ndjson = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `{"id":${from + i},"name":"plant ${from + i}"}\n`).join('');

/** An import reading a pipe that stays open: it would wait for more rows until stopped. */
function importFromOpenPipe(
  args: string[],
  env: Record<string, string>,
  rows: string,
): { child: ChildProcess; result: ReturnType<typeof exited> } {
  const child = startPlants(['import', '-', '--format', 'ndjson', ...args], env);
  const result = exited(child);
  child.stdin?.write(rows);
  return { child, result };
}

/**
 * A remote import of 10 rows from an open pipe, given a SIGINT once `inFlight` requests reached
 * `service`, and a second one 200 ms after the first was taken: apart by more than the 50 ms
 * within which a repeat is the same signal.
 */
async function interruptedTwice(service: FakeService, args: string[], inFlight: number) {
  const env = isolatedEnv(await tempDir(), { PLANTS_BASE_URL: service.url, PLANTS_TOKEN: 'T' });
  const { child, result } = importFromOpenPipe([...args, '--json'], env, ndjson(1, 10));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitFor(`${inFlight} requests to reach the service`, () => service.requests.length === inFlight);
  child.kill('SIGINT');
  await waitFor('the first signal to be taken', () => stderr.includes('finishing the rows read so far'));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const runningAfterFirst = child.exitCode === null;
  child.kill('SIGINT');
  const { code, signal, stdout } = await result;
  return { code, signal, stdout, stderr, runningAfterFirst };
}

describe('plants import interrupted', () => {
  it(
    'by a first SIGINT, --local: stops reading, stores the rows read, releases the lock, exits 130 with the ' +
      'account',
    async () => {
      const home = await tempDir();
      const store = join(home, 'plants.json');
      const { child, result } = importFromOpenPipe(
        ['--local', '--json'],
        isolatedEnv(home, { PLANTS_STORE: store }),
        ndjson(0, 15_000),
      );
      // The first batch of 10,000 is in the journal: the import is under way, waiting on the pipe.
      await waitFor('the first batch', () => existsSync(`${store}.journal`));
      child.kill('SIGINT');
      const { code, signal, stdout, stderr } = await result;
      expect({ code, signal }).toEqual({ code: 130, signal: null });
      expect(stderr).toContain('SIGINT: finishing the rows read so far');
      const summary = JSON.parse(stdout);
      expect(summary.interrupted).toBe('SIGINT');
      const { read, created, failed, notSent, unknown } = summary.counts;
      expect(read).toBeGreaterThanOrEqual(10_000);
      expect({ created, failed, notSent, unknown }).toEqual({ created: read, failed: 0, notSent: 0, unknown: 0 });
      // Every row read is stored, and the lock is gone.
      const plants = await storedPlants(store);
      expect(plants.size).toBe(read);
      expect(plants.get(BigInt(read - 1))).toEqual({ id: BigInt(read - 1), name: `plant ${read - 1}` });
      expect(existsSync(`${store}.lock`)).toBe(false);
    },
  );

  it('by a first SIGTERM, remote: the requests sent get their answers, the summary says so, exit 143', async () => {
    const home = await tempDir();
    const server = await startServer(home);
    try {
      const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
      const { child, result } = importFromOpenPipe([], env, ndjson(1, 3_000));
      await waitFor('3,000 plants on the server', async () => (await storedPlants(server.store)).size === 3_000);
      child.kill('SIGTERM');
      const { code, signal, stderr } = await result;
      expect({ code, signal }).toEqual({ code: 143, signal: null });
      expect(stderr).toMatch(
        pattern(
          /Imported 3,000 rows into http:\/\/127\.0\.0\.1:\d+ in [\d.]+s \([\d,]+ rows\/s\): /,
          /3,000 created, 0 skipped, 0 failed\n/,
        ),
      );
      expect(stderr).toContain('interrupted: SIGTERM: the input was read no further than the 3,000 rows above\n');
      expect(stderr).toContain('hint: the same import with --on-conflict skip imports the rest\n');
    } finally {
      await server.stop();
    }
  });

  it(
    'by a second signal, --local: stops waiting for the lock at once, writes nothing, and still gives the ' +
      'account, exit 130',
    async () => {
      // The first signal comes while the import waits for another process's lock.
      const { store, rejects, lock, child, result, stderr: said } = await importWaitingForLock(ndjson(0, 10));
      try {
        child.kill('SIGINT');
        await waitFor('the first signal to be taken', () => said().includes('finishing the rows read so far'));
        // Apart from the first by more than a delivery twice of one signal (SAME_SIGNAL_MS).
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(child.exitCode).toBeNull();
        child.kill('SIGINT');
        const { code, signal, stderr } = await result;
        expect({ code, signal }).toEqual({ code: 130, signal: null });
        expect(stderr).toContain(
          'plants: SIGINT again: stopping at once, a write under way is finished (a third time kills it)\n',
        );
        expect(stderr).toMatch(
          /Wrote none of 10 rows to \S+plants\.json in [\d.]+s: 0 created, 0 skipped, 0 failed, 10 not sent\n/,
        );
        expect(stderr).toContain('interrupted: SIGINT: the input was read no further than the 10 rows above\n');
        expect((await readFile(rejects, 'utf8')).trim().split('\n')).toHaveLength(10);
        // Nothing written, and the other process's lock is still its own.
        expect(existsSync(`${store}.journal`)).toBe(false);
        expect(() => lock.confirm()).not.toThrow();
      } finally {
        lock.release();
      }
    },
  );

  it(
    'by a second signal, remote: abandons the requests in flight at once, counted as unknown, the rest not sent, ' +
      'exit 130',
    async () => {
      const service = await fakeService();
      // A service that takes the requests and does not answer them (within the client's 30 s).
      service.answer({ status: 200, delayMs: 60_000 });
      try {
        const { code, signal, stdout, stderr, runningAfterFirst } = await interruptedTwice(
          service,
          ['--concurrency', '4'],
          4,
        );
        expect(runningAfterFirst).toBe(true);
        expect({ code, signal }).toEqual({ code: 130, signal: null });
        expect(stderr).toContain(
          'plants: SIGINT again: stopping at once, requests in flight are abandoned (a third time kills it)\n',
        );
        const summary = JSON.parse(stdout);
        expect(summary.interrupted).toBe('SIGINT');
        expect(summary.counts).toMatchObject({ read: 10, created: 0, unknown: 4, notSent: 6 });
        expect(summary.failures.map((failure: { code: string }) => failure.code)).toEqual([
          'interrupted',
          'interrupted',
          'interrupted',
          'interrupted',
        ]);
        expect(service.requests).toHaveLength(4);
      } finally {
        await service.close();
      }
    },
  );

  it(
    'by a second signal, remote: stops waiting to send again after a 503 (Retry-After: 60) at once, not sent, ' +
      'exit 130',
    async () => {
      const service = await fakeService();
      service.answer({ status: 503, headers: { 'retry-after': '60' }, body: '{"error":1,"message":"busy"}' });
      try {
        // Bounded by the test's own time-out: before, the import slept out the service's 60 s.
        const { code, signal, stdout } = await interruptedTwice(service, ['--concurrency', '2'], 2);
        expect({ code, signal }).toEqual({ code: 130, signal: null });
        const summary = JSON.parse(stdout);
        expect(summary.counts).toMatchObject({ read: 10, created: 0, unknown: 0, notSent: 10 });
        expect(service.requests).toHaveLength(2);
      } finally {
        await service.close();
      }
    },
    20_000,
  );

  it('by a second signal, a remote dry run: abandons its reads in flight at once, exit 130', async () => {
    const service = await fakeService();
    service.answer({ status: 200, delayMs: 60_000 });
    try {
      const { code, signal, stdout } = await interruptedTwice(
        service,
        ['--on-conflict', 'update', '--dry-run', '--concurrency', '2'],
        2,
      );
      expect({ code, signal }).toEqual({ code: 130, signal: null });
      expect(JSON.parse(stdout).dryRun).toBe(true);
      expect(service.requests.every((request) => request.method === 'GET')).toBe(true);
    } finally {
      await service.close();
    }
  }, 20_000);
});
