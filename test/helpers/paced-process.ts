import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN } from './cli-process.js';
import { tempDir } from './temp.js';

const PEAK_RSS = fileURLToPath(new URL('../e2e/fixtures/peak-rss.cjs', import.meta.url));

export interface MeasuredRun {
  child: ChildProcess;
  /** Resolves, once the process has ended, to its exit code and its peak resident set size in KiB. */
  ended(): Promise<{ code: number | null; peakKb: number; stderr: string }>;
}

/**
 * Starts the real bin/plants.cjs with its peak memory recorded at exit. Its stdout is `/dev/null`
 * (`'ignore'`), or a pipe that nobody reads until the test does (`'pipe'`): Node stops reading a
 * pipe whose stream is paused, so the pipe fills, as for `plants … | (sleep 60; wc -l)`.
 */
export async function startMeasured(
  args: string[],
  env: Record<string, string>,
  stdout: 'ignore' | 'pipe',
): Promise<MeasuredRun> {
  const peakFile = join(await tempDir(), 'peak-rss');
  const child = spawn(process.execPath, ['--require', PEAK_RSS, BIN, ...args], {
    env: { ...env, PLANTS_TEST_PEAK_RSS: peakFile },
    stdio: ['ignore', stdout, 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<number | null>((resolve, reject) =>
    child.on('error', reject).on('close', (code) => resolve(code)),
  );
  return {
    child,
    ended: async () => {
      const code = await closed;
      return { code, peakKb: Number(await readFile(peakFile, 'utf8')), stderr };
    },
  };
}

/** The CPU time a process has used so far, in clock ticks (Linux: /proc/<pid>/stat). */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces: utime, stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Resolves once `pid` has stopped using the CPU for a while: it is waiting (for a pipe to be read,
 * or for nothing more). This only lets a process that does not wait for its reader get as far as
 * it would; what a test asserts is what the process did, not how long it took.
 */
export async function untilIdle(pid: number): Promise<void> {
  let last = -1;
  for (let still = 0; still < 6;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const ticks = await cpuTicks(pid);
    still = ticks === last ? still + 1 : 0;
    last = ticks;
  }
}
