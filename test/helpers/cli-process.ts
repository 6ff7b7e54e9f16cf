import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const BIN = fileURLToPath(new URL('../../bin/plants.cjs', import.meta.url));

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a child `plants`: nothing of the user's (no real HOME, config, proxy or
 * pager), with config and data pointed at `home`.
 */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_DATA_HOME: `${home}/.local/share`,
    PLANTS_CONFIG_DIR: `${home}/config`,
    // On a test's terminal, plants' own output, not a pager's (less, where the machine has it).
    PLANTS_PAGER: 'cat',
    ...extra,
  };
}

/** Starts the real bin/plants.cjs (compiled JS, as installed). */
export function startPlants(args: string[], env: Record<string, string>): ChildProcess {
  return startPlantsOn(process.execPath, args, env);
}

/** Starts the real bin/plants.cjs on the Node at `node`. */
export function startPlantsOn(node: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(node, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  killAfterTest(child);
  // A child that stops reading on purpose (an interrupted import, an input refused at once) exits
  // with rows of its stdin still unwritten: that write fails with EPIPE, which is no failure of the
  // test's (its assertions are on the exit code and the output), but unhandled, it fails the run.
  child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  return child;
}

/**
 * Starts the real bin/plants.cjs with at most `openFiles` descriptors (soft and hard: sh's ulimit
 * sets both, and node raises a soft limit to the hard one at start).
 */
export function startPlantsLimited(openFiles: number, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn('sh', ['-c', 'ulimit -n "$0" && exec "$@"', String(openFiles), process.execPath, BIN, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  killAfterTest(child);
  child.stdin?.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  return child;
}

/** Runs the real bin/plants.cjs to the end, feeding `input` on stdin. */
export function runPlants(args: string[], env: Record<string, string>, input = ''): Promise<ProcessResult> {
  const child = startPlants(args, env);
  return finished(child, input);
}

/**
 * Runs the real bin/plants.cjs, killed (SIGKILL: a process stuck in a loop may ignore the others) if it has not ended
 * within `limitMs`.
 */
export async function runPlantsWithin(
  limitMs: number,
  args: string[],
  env: Record<string, string>,
): Promise<ProcessResult> {
  const child = startPlants(args, env);
  const deadline = setTimeout(() => child.kill('SIGKILL'), limitMs);
  try {
    return await finished(child);
  } finally {
    clearTimeout(deadline);
  }
}

export function finished(child: ChildProcess, input = ''): Promise<ProcessResult> {
  const result = exited(child);
  child.stdin?.end(input);
  return result;
}

/** What a child wrote, once it has exited; its stdin is left as it is (open, for a test that feeds it). */
export function exited(child: ChildProcess): Promise<ProcessResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * A child started by a test, still running when the test ends (it failed before it stopped the
 * child): killed, not left behind. One started outside a test (a beforeAll's server, used by the
 * tests of a file) is its starter's to stop.
 */
function killAfterTest(child: ChildProcess): void {
  try {
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  } catch {
    // Not in a test.
  }
}
