import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { finished, type ProcessResult } from '../../test/helpers/cli-process.js';

export { BIN } from '../../test/helpers/cli-process.js';
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Run extends ProcessResult {
  ms: number;
}

/**
 * Runs a command to its end, the wall time covering the whole process, start-up included; a
 * non-zero exit is an error: a benchmark of a failing command measures nothing. Its stdout is
 * kept, or with `ignore` goes nowhere (a million plants listed).
 */
export async function mustRun(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  stdout: 'pipe' | 'ignore' = 'pipe',
): Promise<Run> {
  const started = performance.now();
  const result = await finished(spawn(command, args, { env, stdio: ['ignore', stdout, 'pipe'] }));
  const run = { ...result, ms: performance.now() - started };
  if (run.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${run.code}: ${run.stderr.slice(0, 500)}`);
  return run;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Median wall times of each runner (ours, the baseline, a floor), run in turn after a warm-up, so
 * that whatever else the shared machine does falls on all alike; in a new random order each
 * round, so that none always runs right after the same other.
 */
export async function compareTimes<K extends string>(
  runs: number,
  warmup: number,
  runners: Record<K, () => Promise<Run>>,
): Promise<Record<K, number>> {
  const names = Object.keys(runners) as K[];
  for (let i = 0; i < warmup; i += 1) for (const name of names) await runners[name]();
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>;
  for (let i = 0; i < runs; i += 1) for (const name of shuffled(names)) times[name].push((await runners[name]()).ms);
  return Object.fromEntries(names.map((name) => [name, median(times[name])])) as Record<K, number>;
}

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
