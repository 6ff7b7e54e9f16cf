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
    const baseline = await (await startMeasured(args, env, 'ignore')).ended();
    expect(baseline.code).toBe(0);

    const slow = await startMeasured(args, env, 'pipe');
    // The pipe is full, and the list waits for it to be read (or, not waiting, has made all its output).
    await untilIdle(slow.child.pid as number);
    const read = await drain(slow.child.stdout!);
    const piped = await slow.ended();
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    expect(read.lines).toBe(lines);
    // Not waiting, it would hold its whole output (~OUTPUT_BYTES, twice over as strings and buffers).
    expect(piped.peakKb).toBeLessThan(baseline.peakKb + OUTPUT_BYTES / 2 / 1024);
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
    await writeFile(input, `{"id":"x","name":"bad"}\n${Array.from({ length: PLANTS }, (_, id) => `{"id":${id},"name":"${NAME}"}\n`).join('')}`);
    const args = (rejects: string) => ['import', input, '--dry-run', '--fail-fast', '--rejects', rejects];
    const baseline = await (await startMeasured(args('/dev/null'), env, 'ignore')).ended();
    expect(baseline.code).toBe(1);

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
    expect(imported.peakKb).toBeLessThan(baseline.peakKb + OUTPUT_BYTES / 2 / 1024);
  });
});
