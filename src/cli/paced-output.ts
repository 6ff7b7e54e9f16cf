import type { PacedOutput } from './context.js';

/**
 * Writes `text`, then waits until `output` wants more: so a command writing without end (a list
 * of a million plants into a pipe read slowly) holds what the stream buffers, not all it has
 * written. Resolves false when `output` takes nothing more (its reader went away, as for
 * `plants list | head -1`, or a write failed): the writer should stop making output (and the end
 * of the command line tells which it was: output-failure.ts).
 */
export async function writeInTurn(output: PacedOutput, text: string): Promise<boolean> {
  if (!takes(output)) return false;
  output.write(text);
  return await untilTaken(output);
}

/**
 * Resolves once `output` holds no more than it wants (at once, mostly): to true, or to false when
 * it takes nothing more. Never waits for a 'drain' that cannot come: a stream that closes or fails
 * ends the wait too.
 */
export async function untilTaken(output: PacedOutput): Promise<boolean> {
  if (takes(output) && output.writableNeedDrain) {
    await new Promise<void>((resume) => {
      const done = () => {
        output.off('drain', done);
        output.off('close', done);
        output.off('error', done);
        resume();
      };
      output.once('drain', done);
      output.once('close', done);
      output.once('error', done);
    });
  }
  return takes(output);
}

/** A stream that failed is destroyed only a moment later: either way it takes nothing more. */
function takes(output: PacedOutput): boolean {
  return !output.destroyed && !output.errored;
}
