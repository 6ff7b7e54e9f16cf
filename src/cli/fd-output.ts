import { fstatSync, statSync, writeSync } from 'node:fs';

/** What a command writes its text to: a stream, or fdOutput. */
export interface TextOutput {
  write(text: string): unknown;
}

export interface FdOutput extends TextOutput {
  /** From now on, everything through the stream: for a process that must not wait on its reader. */
  useStream(): void;
}

/**
 * Whether fd is a terminal. Only a character device can be one, so the pipes and files that
 * scripts give are answered by an fstat, without loading node:tty (and with it node:net and
 * node:stream: ~2.5 ms of a start-up); so is /dev/null (`>/dev/null`, cron, a child's ignored
 * stdio), the character device that scripts give most.
 */
export async function isTerminal(fd: number): Promise<boolean> {
  try {
    const stats = fstatSync(fd);
    if (!stats.isCharacterDevice() || stats.rdev === statSync('/dev/null', { throwIfNoEntry: false })?.rdev) return false;
  } catch {
    return false;
  }
  const { isatty } = await import('node:tty');
  return isatty(fd);
}

/** A file's identity, `dev:ino`, from its stat; undefined if it has none (closed, absent). */
export function fileIdentity(stat: () => { dev: number; ino: number }): string | undefined {
  try {
    const info = stat();
    return `${info.dev}:${info.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * Writes each text to fd at once with write(2), without a stream: process.stdout loads node:net
 * and node:stream, ~3 ms of a one-line answer. A write waits for a slow reader, which a command
 * that is about to exit can afford; a server cannot (useStream). A descriptor that another
 * process made non-blocking can refuse a write (EAGAIN): from then on everything goes through
 * `stream()`, which holds what the reader has not taken yet, in order. A reader that went away
 * (`plants … | head -1`) must not take the process down with it: what cannot be written is
 * dropped, as a real run drops its streams' errors.
 */
export function fdOutput(fd: number, stream: () => NodeJS.WritableStream): FdOutput {
  let fallback: NodeJS.WritableStream | undefined;
  let closed = false;
  return {
    useStream() {
      if (!closed) fallback ??= stream();
    },
    write(text: string): void {
      if (fallback !== undefined) {
        fallback.write(text);
        return;
      }
      if (closed) return;
      const bytes = Buffer.from(text);
      let offset = 0;
      try {
        while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
          closed = true;
          return;
        }
        fallback = stream();
        fallback.write(bytes.subarray(offset));
      }
    },
  };
}
