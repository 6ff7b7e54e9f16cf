import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../helpers/cli-process.js';
import { startMeasured, untilIdle } from '../helpers/paced-process.js';
import { tempDir } from '../helpers/temp.js';

/** Plants of long names: what a slow reader would make a writer hold, were it not to wait, is large. */
const PLANTS = 40_000;
const NAME = 'n'.repeat(800);
const OUTPUT_BYTES = PLANTS * (NAME.length + 24);

/**
 * How much more a run into a reader that does not read may hold than one into /dev/null. Not
 * waiting for its reader, a run holds all its output, twice over as strings and buffers (~2.3
 * times OUTPUT_BYTES more, measured); waiting, a page or two, and what the garbage collector
 * leaves lying about, which differs from one run to the next by up to about two thirds of this.
 */
const MARGIN_KB = OUTPUT_BYTES / 1024;

/** The peak memory of a run into /dev/null: the more of two, as one may collect its garbage sooner than the other. */
async function peakIntoDevNull(args: string[], env: Record<string, string>, code: number): Promise<number> {
  const peaks: number[] = [];
  while (peaks.length < 2) {
    const run = await (await startMeasured(args, env, 'ignore')).ended();
    expect(run.code).toBe(code);
    peaks.push(run.peakKb);
  }
  return Math.max(...peaks);
}

/** A store file of PLANTS plants, written as plants writes one. */
async function bigStore(path: string): Promise<void> {
  const file = createWriteStream(path);
  file.write('{\n  "plantStore": 1,\n  "plants": [\n');
  for (let id = 0; id < PLANTS; id += 1) {
    if (!file.write(`    {"id":${id},"name":"${NAME}"}${id < PLANTS - 1 ? ',' : ''}\n`)) await once(file, 'drain');
  }
  file.end('  ]\n}\n');
  await once(file, 'close');
}

/** Every byte a stream gives, counted as it is read. */
async function drain(stream: NodeJS.ReadableStream): Promise<{ bytes: number; lines: number }> {
  let bytes = 0;
  let lines = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
  }
  return { bytes, lines };
}

describe.runIf(process.platform === 'linux')('a command writing without end waits for its reader', () => {
  it.each([
    ['--format ndjson', ['--format', 'ndjson'], PLANTS],
    ['--format csv', ['--format', 'csv'], PLANTS + 1],
    ['--json', ['--json'], PLANTS + 2],
    ['a line a plant', [], PLANTS],
  ])('plants list %s into a pipe nobody reads holds no more than into /dev/null', async (_what, format, lines) => {
    const home = await tempDir();
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') });
    await bigStore(env.PLANTS_STORE as string);
    const args = ['list', '--local', ...format];
    const baseline = await peakIntoDevNull(args, env, 0);

    const slow = await startMeasured(args, env, 'pipe');
    // The pipe is full, and the list waits for it to be read (or, not waiting, has made all its output).
    await untilIdle(slow.child.pid as number);
    const read = await drain(slow.child.stdout!);
    const piped = await slow.ended();
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(read.lines).toBe(lines);
    expect(piped.peakKb).toBeLessThan(baseline + MARGIN_KB);
  });

  it('plants list | head -1: the list ends, quietly, once its reader has gone', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') });
    await bigStore(env.PLANTS_STORE as string);
    const list = await startMeasured(['list', '--local', '--format', 'ndjson'], env, 'pipe');
    const stdout = list.child.stdout!;
    // Its first line, then the reader goes away, as head does.
    let first = '';
    for await (const chunk of stdout as AsyncIterable<Buffer>) {
      first += chunk.toString('utf8');
      if (first.includes('\n')) break;
    }
    stdout.destroy();
    expect(first.startsWith(`{"id":0,"name":"${NAME}"}\n`)).toBe(true);
    expect(await list.ended()).toMatchObject({ code: 0, stderr: '' });
  });

  it('plants import --rejects into a FIFO nobody reads holds no more than into /dev/null', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') });
    // A first row that fails, then --fail-fast: every row after it is not sent, and goes to --rejects.
    const input = join(home, 'plants.ndjson');
    await writeFile(
      input,
      '{"id":"x","name":"bad"}\n' +
        `${Array.from({ length: PLANTS }, (_, id) => `{"id":${id},"name":"${NAME}"}\n`).join('')}`,
    );
    const args = (rejects: string) => ['import', input, '--local', '--dry-run', '--fail-fast', '--rejects', rejects];
    const baseline = await peakIntoDevNull(args('/dev/null'), env, 1);

    const fifo = join(home, 'rejects.fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Opened for reading before the import opens it for writing (a FIFO's open waits for both ends).
    const reader = open(fifo, 'r');
    const slow = await startMeasured(args(fifo), env, 'ignore');
    const handle = await reader;
    await untilIdle(slow.child.pid as number);
    const read = await drain(handle.createReadStream());
    const imported = await slow.ended();
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain(`${PLANTS.toLocaleString('en')} not sent`);
    expect(read.lines).toBe(PLANTS + 1);
    expect(imported.peakKb).toBeLessThan(baseline + MARGIN_KB);
  });
});
