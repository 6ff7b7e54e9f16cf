import { PlantsError } from '../core/errors.js';
import { ioReason } from '../fs/io-reason.js';
import type { Env, IOStreams } from './context.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { reportError } from './report-error.js';

/** Standard output could not be written (`output_io`, exit 4), in words: `no space left on device (ENOSPC)`. */
export function cannotWriteStdout(error: Error): PlantsError {
  return new PlantsError('output_io', `could not write to standard output: ${ioReason(error)}`, { cause: error });
}

/**
 * The exit code of a command line that ended with `code`, once stdout and stderr have taken all
 * it wrote, or failed. Output that could not be written is never success:
 * - stdout is what a script reads: lost, or cut short, the command's outcome is `output_io`,
 *   said on stderr (never as a JSON document on the stdout that failed), whatever else it said,
 *   unless a bug (70) or a signal (128 and up) ended it, which the exit code goes on saying;
 * - stderr's messages cannot say that they were lost: a command that would have exited 0 exits 4;
 *   one that failed keeps the exit code that says so.
 * A reader that went away (EPIPE: `plants list | head -1`) is no failure of either.
 */
export async function exitCodeOnceWritten(code: number, io: IOStreams, env: Env): Promise<number> {
  await io.stdout.flushed();
  const stdout = io.stdout.failure;
  if (stdout !== undefined) {
    const reported = reportError(cannotWriteStdout(stdout), io, env, false);
    if (code < EXIT.internal) code = reported;
  }
  await io.stderr.flushed();
  return io.stderr.failure !== undefined && code === EXIT.ok ? exitCodeFor('output_io') : code;
}
