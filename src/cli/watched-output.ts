import type { Writable } from 'node:stream';
import type { TextOutput } from './context.js';

/**
 * `stream` (this process's stdout or stderr, or a test's) as commands write to it: it remembers
 * the first write that failed, and takes nothing more after it.
 *
 * Node's own stdout and stderr cannot tell a writer that a write failed a moment ago: they must
 * stay open for the process, so each undoes its destroy at once (not `destroyed`, not `errored`
 * by the time 'error' is heard), and takes the next write as if nothing had happened. A write to
 * a file fails at once (Node writes stdout to a file synchronously), one to a pipe maybe only
 * later, after the command has returned: what each write's callback says is kept here, and
 * flushed() waits for the last of them.
 */
export function watchedOutput(stream: Writable): TextOutput {
  let stopped: Error | undefined;
  let pending = 0;
  const waiting: (() => void)[] = [];
  const stop = (error: Error) => void (stopped ??= error);
  // Also a failure of a write not made here (a progress bar's, on the terminal): never a crash.
  stream.on('error', stop);
  const written = (error?: Error | null) => {
    if (error) stop(error);
    pending -= 1;
    if (pending === 0) for (const resume of waiting.splice(0)) resume();
  };
  return {
    write(text) {
      if (stopped !== undefined) return false;
      pending += 1;
      return stream.write(text, written);
    },
    get writableNeedDrain() {
      return stream.writableNeedDrain;
    },
    get destroyed() {
      return stopped !== undefined || stream.destroyed;
    },
    get errored() {
      // The stream's own, in the moment between a write failing and its callback.
      return stopped ?? stream.errored;
    },
    get failure() {
      return stopped === undefined || readerGone(stopped) ? undefined : stopped;
    },
    flushed: () => (pending === 0 ? Promise.resolve() : new Promise<void>((resume) => waiting.push(resume))),
    once(event, listener) {
      return stream.once(event, listener);
    },
    off(event, listener) {
      return stream.off(event, listener);
    },
  };
}

/** A write that failed because its reader went away (`plants list | head -1`): the quiet end of a pipe, no failure. */
function readerGone(error: Error): boolean {
  return (error as NodeJS.ErrnoException).code === 'EPIPE';
}
