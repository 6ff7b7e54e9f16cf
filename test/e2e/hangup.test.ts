import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { BIN, exited, isolatedEnv, runPlants, startPlants } from '../helpers/cli-process.js';
import { fakeService } from '../helpers/fake-service.js';
import { adminUrl, startServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';
import { importWaitingForLock } from '../helpers/lock-wait-import.js';
import { pattern } from '../helpers/pattern.js';

// SIGHUP: a terminal closed, an ssh session dropped. It must get what SIGTERM gets: the summary,
// every row not done in --rejects, the store's lock released, exit 129; plants serve drains.

const ndjson = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `{"id":${from + i},"name":"plant ${from + i}"}\n`).join('');

/**
 * `plants args` reading standard input from a pipe that stays open (more rows may come), as a pipeline from a slow
 * producer.
 */
function readingOpenPipe(
  args: string[],
  env: Record<string, string>,
  rows: string,
): { child: ChildProcess; result: ReturnType<typeof exited> } {
  const child = startPlants(args, env);
  const result = exited(child);
  child.stdin?.write(rows);
  return { child, result };
}

/** Rows of a --rejects file (NDJSON, no header). */
async function rejectedLines(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8');
  return text === '' ? [] : text.trimEnd().split('\n');
}

/**
 * `plants args` as the job of a shell on a pseudo-terminal (util-linux script), reading the FIFO
 * `input`, its stdout into `stdoutPath`. hangUp() closes the terminal, as a closed window or a
 * dropped ssh session does: the kernel hangs it up and sends the shell SIGHUP, which the shell
 * passes on to its job, as bash does; the job's stderr is the dead terminal (EIO). Resolves to the
 * job's exit code, as the shell saw it.
 */
async function onClosingTerminal(
  home: string,
  args: string[],
  input: string,
  stdoutPath: string,
): Promise<{ hangUp(): Promise<number> }> {
  const script = join(home, 'job.sh');
  const rcPath = join(home, 'job.rc');
  const quoted = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  await writeFile(
    script,
    [
      'hup=0',
      `trap 'hup=1; kill -HUP $job' HUP`,
      `${[process.execPath, BIN, ...args].map(quoted).join(' ')} < ${quoted(input)} > ${quoted(stdoutPath)} &`,
      'job=$!',
      // A wait the trap cuts short returns at once: the job's own status comes with the next one.
      'wait $job; rc=$?',
      'if [ $hup = 1 ]; then wait $job; rc=$?; fi',
      `echo $rc > ${quoted(rcPath)}`,
      '',
    ].join('\n'),
  );
  const terminal = spawn('script', ['-q', '-e', '-c', `sh ${quoted(script)}`, '/dev/null'], {
    env: { ...isolatedEnv(home), TERM: 'xterm' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  terminal.stdout.resume();
  terminal.stderr.resume();
  onTestFinished(() => void terminal.kill('SIGKILL'));
  return {
    async hangUp() {
      // Its other end closed for good: the terminal's window, the ssh connection.
      terminal.kill('SIGKILL');
      await waitFor("the job's exit code", () => existsSync(rcPath));
      return Number((await readFile(rcPath, 'utf8')).trim());
    },
  };
}

describe('SIGHUP: the terminal closed', () => {
  it(
    'an import --local on a terminal that closes: imports the rows read, releases the lock, --rejects what was ' +
      'not done, exit 129',
    async () => {
      const home = await tempDir();
      const store = join(home, 'plants.json');
      const rejects = join(home, 'rejects.ndjson');
      const fifo = join(home, 'rows.fifo');
      execFileSync('mkfifo', [fifo]);
      const summaryPath = join(home, 'summary.json');
      const terminal = await onClosingTerminal(
        home,
        ['import', '-', '--format', 'ndjson', '--local', '--store', store, '--rejects', rejects, '--json'],
        fifo,
        summaryPath,
      );
      const rows = createWriteStream(fifo);
      // The job reads only part of the rows before it is hung up: what is still being written into
      // the FIFO then meets a reader that is gone (EPIPE), as a producer of a pipeline would.
      rows.on('error', () => undefined);
      onTestFinished(() => void rows.end());
      // Row 3 is invalid: a row not done, for --rejects to keep.
      rows.write(`${ndjson(0, 3)}{"id":"three"}\n${ndjson(4, 14_996)}`);
      await waitFor('the first batch', () => existsSync(`${store}.journal`));
      expect(await terminal.hangUp()).toBe(129);
      const summary = JSON.parse(await readFile(summaryPath, 'utf8'));
      expect(summary.interrupted).toBe('SIGHUP');
      const { read, created, failed, notSent, unknown } = summary.counts;
      expect(read).toBeGreaterThanOrEqual(10_000);
      expect({ created, failed, notSent, unknown }).toEqual({ created: read - 1, failed: 1, notSent: 0, unknown: 0 });
      expect(await rejectedLines(rejects)).toEqual(['{"id":"three"}']);
      expect((await storedPlants(store)).size).toBe(created);
      expect(existsSync(`${store}.lock`)).toBe(false);
    },
  );

  it(
    'an import --local: prints the summary, exit 129; a SIGHUP again is the same hang-up, a SIGTERM then stops ' +
      'at once',
    async () => {
      // The hang-up comes while the import waits for another process's lock.
      const { store, rejects, lock, child, result, stderr: said } = await importWaitingForLock(ndjson(0, 10));
      try {
        child.kill('SIGHUP');
        await waitFor('the hang-up to be taken', () =>
          said().includes('plants: SIGHUP: finishing the rows read so far'),
        );
        // Apart by more than a delivery twice of one signal (SAME_SIGNAL_MS).
        await new Promise((resolve) => setTimeout(resolve, 200));
        child.kill('SIGHUP');
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(child.exitCode).toBeNull();
        expect(said()).not.toContain('SIGHUP again');
        child.kill('SIGTERM');
        const { code, signal, stderr } = await result;
        expect({ code, signal }).toEqual({ code: 129, signal: null });
        expect(stderr).toContain(
          'plants: SIGTERM again: stopping at once, a write under way is finished (a third time kills it)\n',
        );
        expect(stderr).toMatch(
          /Wrote none of 10 rows to \S+plants\.json in [\d.]+s: 0 created, 0 skipped, 0 failed, 10 not sent\n/,
        );
        expect(stderr).toContain('interrupted: SIGHUP: the input was read no further than the 10 rows above\n');
        expect(await rejectedLines(rejects)).toHaveLength(10);
        expect(existsSync(`${store}.journal`)).toBe(false);
        expect(() => lock.confirm()).not.toThrow();
      } finally {
        lock.release();
      }
    },
  );

  it('a remote import: the requests sent get their answers, the summary says so, exit 129', async () => {
    const home = await tempDir();
    const server = await startServer(home);
    try {
      const rejects = join(home, 'rejects.ndjson');
      const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
      const { child, result } = readingOpenPipe(
        ['import', '-', '--format', 'ndjson', '--rejects', rejects],
        env,
        ndjson(1, 3_000),
      );
      await waitFor('3,000 plants on the server', async () => (await storedPlants(server.store)).size === 3_000);
      child.kill('SIGHUP');
      const { code, signal, stderr } = await result;
      expect({ code, signal }).toEqual({ code: 129, signal: null });
      expect(stderr).toMatch(
        pattern(
          /Imported 3,000 rows into http:\/\/127\.0\.0\.1:\d+ in [\d.]+s \([\d,]+ rows\/s\): /,
          /3,000 created, 0 skipped, 0 failed\n/,
        ),
      );
      expect(stderr).toContain('interrupted: SIGHUP: the input was read no further than the 3,000 rows above\n');
      expect(await rejectedLines(rejects)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it(
    'a remote import whose stderr is gone: a SIGTERM after the SIGHUP abandons the requests in flight; --rejects ' +
      'has them and the rest, exit 129',
    async () => {
      const service = await fakeService();
      // A service that takes the requests and does not answer them (within the client's 30 s).
      service.answer({ status: 200, delayMs: 60_000 });
      try {
        const home = await tempDir();
        const rejects = join(home, 'rejects.ndjson');
        const env = isolatedEnv(home, { PLANTS_BASE_URL: service.url, PLANTS_TOKEN: 'T' });
        const { child, result } = readingOpenPipe(
          ['import', '-', '--format', 'ndjson', '--concurrency', '4', '--rejects', rejects, '--json'],
          env,
          ndjson(1, 10),
        );
        await waitFor('4 requests to reach the service', () => service.requests.length === 4);
        // Nobody reads its messages any more: each write to stderr fails (EPIPE).
        child.stderr?.destroy();
        child.kill('SIGHUP');
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(child.exitCode).toBeNull();
        child.kill('SIGTERM');
        const { code, signal, stdout } = await result;
        expect({ code, signal }).toEqual({ code: 129, signal: null });
        const summary = JSON.parse(stdout);
        expect(summary.interrupted).toBe('SIGHUP');
        expect(summary.counts).toMatchObject({ read: 10, created: 0, unknown: 4, notSent: 6 });
        expect(await rejectedLines(rejects)).toHaveLength(10);
      } finally {
        await service.close();
      }
    },
  );

  it('delete --from --local: deletes the ids read, the summary, the lock released, exit 129', async () => {
    const home = await tempDir();
    const store = join(home, 'plants.json');
    const env = isolatedEnv(home, { PLANTS_STORE: store });
    expect((await runPlants(['import', '-', '--format', 'ndjson', '--local'], env, ndjson(0, 10_000))).code).toBe(0);
    const ids = Array.from({ length: 10_000 }, (_, i) => `${i}\n`).join('');
    const argv = ['delete', '--yes', '--from', '-', '--format', 'ids', '--local'];
    const { child, result } = readingOpenPipe(argv, env, ids);
    // A batch of 10,000 ids: deleted once it is read whole.
    await waitFor('the ids to be deleted', async () => (await storedPlants(store)).size === 0);
    child.kill('SIGHUP');
    const { code, signal, stderr } = await result;
    expect({ code, signal }).toEqual({ code: 129, signal: null });
    expect(stderr).toMatch(
      pattern(
        /Read 10,000 ids from standard input to delete from \S+plants\.json in [\d.]+s \([\d,]+ ids\/s\): /,
        /10,000 deleted, 0 skipped, 0 failed\n/,
      ),
    );
    expect(stderr).toContain('interrupted: SIGHUP: the input was read no further than the 10,000 ids above\n');
    expect(existsSync(`${store}.lock`)).toBe(false);
  });

  it('plants serve drains: /readyz 503 during --shutdown-delay, a request then is served, exit 0', async () => {
    const home = await tempDir();
    const server = await startServer(home, ['--admin-port', '0', '--shutdown-delay', '2']);
    try {
      const admin = await adminUrl(server);
      const readyz = async () => {
        const answer = await request(`${admin}/readyz`);
        await answer.body.text();
        return answer.statusCode;
      };
      expect(await readyz()).toBe(200);
      const exit = once(server.child, 'exit');
      server.child.kill('SIGHUP');
      await waitFor('/readyz to answer 503', async () => (await readyz()) === 503);
      expect(server.log()).not.toContain('plants serve: stopped');
      const during = await request(`${server.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: '{"id": 7, "name": "Late"}',
      });
      expect(during.statusCode).toBe(200);
      await during.body.text();
      // A hang-up told again (the shell, then the kernel as the shell exits) does not cut the drain short.
      server.child.kill('SIGHUP');
      expect(await exit).toEqual([0, null]);
      expect(server.log()).toContain(
        'plants serve: SIGHUP: not ready; serving 2 s more, then finishing requests in flight\n',
      );
      expect(server.log()).toContain('plants serve: stopped');
      expect((await storedPlants(server.store)).get(7n)).toEqual({ id: 7n, name: 'Late' });
    } finally {
      await server.stop('SIGKILL');
    }
  });
});
