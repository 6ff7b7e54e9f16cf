import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { IOStreams } from '../../src/cli/context.js';
import { exitCodeOnceWritten } from '../../src/cli/output-failure.js';
import { watchedOutput } from '../../src/cli/watched-output.js';
import type { NewPlant } from '../../src/core/schemas.js';
import type { ListQuery } from '../../src/core/store.js';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { testContext, type TestContext } from '../helpers/test-context.js';

// The mechanism of output that cannot be written, without processes (the real streams, a full
// disk and /dev/full: test/e2e/output-errors.test.ts): stdout and stderr keep their first failed
// write, the paced writer stops on it, and the end of the command line turns it into exit 4.

const ENOSPC = 'error: could not write to standard output: no space left on device (ENOSPC)\n';

const failure = (code: string) => Object.assign(new Error(`write ${code}`), { code });

/** A stream each write of which fails with `code`: at once (a file), or a turn later (a pipe). */
function failing(code: string, when: 'at once' | 'later' = 'at once'): Writable {
  const fail = (done: (error: Error) => void) => done(failure(code));
  const write = (_chunk: unknown, _encoding: unknown, done: (error: Error) => void) =>
    void (when === 'later' ? setImmediate(fail, done) : fail(done));
  return new Writable({ write });
}

/**
 * A stream like Node's own stdout on a pipe: a write fails a turn later, and the stream then undoes
 * its destroy at once (it must stay open for the process), as if nothing had failed.
 */
function failingLikeStdout(code: string): Writable {
  const stream = new Writable({
    highWaterMark: 1,
    write: (_chunk, _encoding, done) => setImmediate(() => done(failure(code))),
    destroy(error, done) {
      done(error);
      (this as unknown as { _undestroy(): void })._undestroy();
    },
  });
  return stream;
}

/** A test context over a store of `count` plants, its stdout (or stderr) replaced by `stream`. */
async function contextWith(count: number, streams: { stdout?: Writable; stderr?: Writable }): Promise<TestContext> {
  const t = await testContext();
  await mkdir(dirname(t.storePath), { recursive: true });
  const plants = Array.from({ length: count }, (_, i): NewPlant => ({ id: BigInt(i), name: `plant ${i}` }));
  await writeFile(t.storePath, encodeDatabase(plants));
  if (streams.stdout !== undefined) Object.assign(t.ctx.io, { stdout: watchedOutput(streams.stdout) });
  if (streams.stderr !== undefined) Object.assign(t.ctx.io, { stderr: watchedOutput(streams.stderr) });
  return t;
}

/** Counts the pages the context's store is asked for. */
function countPages(t: TestContext): { pages: number } {
  const counted = { pages: 0 };
  const openStore = t.ctx.openStore;
  t.ctx.openStore = async (location) => {
    const store = await openStore(location);
    const list = (query: ListQuery) => ((counted.pages += 1), Object.getPrototypeOf(store).list.call(store, query));
    return Object.assign(store, { list });
  };
  return counted;
}

describe('stdout that cannot be written', () => {
  const formats = [[[]], [['--json']], [['--format', 'ndjson']], [['--format', 'csv']]];
  it.each(formats)('list %j stops at the first failed write: exit 4, said on stderr', async (format) => {
    const t = await contextWith(5_000, { stdout: failing('ENOSPC') });
    const counted = countPages(t);
    expect(await t.run('list', '--local', ...format)).toBe(4);
    expect(counted.pages).toBeLessThanOrEqual(1);
    expect(t.stderr()).toBe(ENOSPC);
  });

  it("list stops at a write that fails later, though the stream undoes its destroy (as Node's stdout)", async () => {
    const t = await contextWith(5_000, { stdout: failingLikeStdout('EIO') });
    const counted = countPages(t);
    expect(await t.run('list', '--local', '--format', 'ndjson')).toBe(4);
    expect(counted.pages).toBeLessThanOrEqual(1);
    expect(t.stderr()).toBe('error: could not write to standard output: input/output error (EIO)\n');
  });

  it.each(['EIO', 'EBADF', 'EFBIG', 'ENOSPC'])('a write failing with %s a turn later: exit 4', async (code) => {
    const t = await contextWith(3, { stdout: failing(code, 'later') });
    expect(await t.run('get', '--local', '--id', '1')).toBe(4);
    expect(t.stderr()).toMatch(new RegExp(`^error: could not write to standard output: .*\\(${code}\\)\\n$`));
  });

  it('the exit waits for the last write: one failing after the command returned is exit 4', async () => {
    const t = await contextWith(0, {});
    // A stdout that holds the write: it fails only when the test says so.
    let fail!: () => void;
    const wrote = new Promise<void>((resolve) => {
      const held = new Writable({
        write: (_chunk, _encoding, done) => {
          fail = () => done(failure('EIO'));
          resolve();
        },
      });
      Object.assign(t.ctx.io, { stdout: watchedOutput(held) });
    });
    const running = t.run('config', 'path');
    await wrote;
    let ended = false;
    void running.then(() => (ended = true));
    await new Promise((turn) => setImmediate(turn));
    expect(ended).toBe(false);
    fail();
    expect(await running).toBe(4);
    expect(t.stderr()).toBe('error: could not write to standard output: input/output error (EIO)\n');
  });

  it('with --json, a failure document that cannot be written: said on stderr, exit 4', async () => {
    const t = await contextWith(3, { stdout: failing('ENOSPC') });
    expect(await t.run('get', '--local', '--id', '99', '--json')).toBe(4);
    expect(t.stderr()).toBe(ENOSPC);
  });

  it.each(['at once', 'later'] as const)('a reader gone (EPIPE, %s) is no failure, and nothing said', async (when) => {
    const t = await contextWith(3, { stdout: failing('EPIPE', when) });
    expect(await t.run('get', '--local', '--id', '1')).toBe(0);
    expect(await t.run('get', '--local', '--id', '99')).toBe(1);
    expect(t.stderr()).toBe('error: no plant with id 99\n');
  });
});

describe('stderr that cannot be written', () => {
  it('a command that would exit 0 exits 4: what it had to say is lost', async () => {
    const t = await contextWith(0, { stderr: failing('ENOSPC') });
    expect(await t.run('config', 'set', 'timeout', '10')).toBe(4);
  });

  it('a command that failed keeps its exit code; one with nothing to say is not troubled', async () => {
    const failed = await contextWith(3, { stderr: failing('EIO') });
    expect(await failed.run('get', '--local', '--id', '99')).toBe(1);
    const quiet = await contextWith(3, { stderr: failing('EIO') });
    expect(await quiet.run('get', '--local', '--id', '1')).toBe(0);
    expect(quiet.stdout()).toContain('plant 1');
  });

  it('a reader that went away (EPIPE) is no failure', async () => {
    const t = await contextWith(0, { stderr: failing('EPIPE') });
    expect(await t.run('config', 'set', 'timeout', '10')).toBe(0);
  });
});

describe('exitCodeOnceWritten', () => {
  const style = { red: String, bold: String, dim: String };
  const io = (stdout: Writable, stderr: Writable) =>
    ({ stdout: watchedOutput(stdout), stderr: watchedOutput(stderr), stderrStyle: style }) as unknown as IOStreams;

  it.each([
    [0, 4],
    [1, 4],
    [2, 4],
    [3, 4],
    [70, 70],
    [129, 129],
    [130, 130],
    [143, 143],
  ])('stdout failed, a command that ended with %i: exit %i (a bug, a signal say so still)', async (code, expected) => {
    const said = new PassThrough();
    const streams = io(failing('ENOSPC'), said);
    streams.stdout.write('lost\n');
    expect(await exitCodeOnceWritten(code, streams, {})).toBe(expected);
    expect(said.read()?.toString()).toBe(ENOSPC);
  });
});
