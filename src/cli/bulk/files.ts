import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { PlantsError } from '../../core/errors.js';
import type { IOStreams } from '../context.js';
import { fileIdentity } from '../file-identity.js';
import { untilTaken } from '../paced-output.js';
import { fileReadStream, fileWriteStream, openFile } from '../../fs/file-streams.js';
import type { FileSystem } from '../../fs/file-system.js';
import { ioReason } from '../../fs/io-reason.js';

export interface Input {
  /** Its bytes as they come; a read that fails part way is `unreadable_input`, with the reason. */
  chunks: AsyncIterable<Buffer | string>;
  /** Bytes in all, when known (a file): the progress line's 100%. */
  size: number | undefined;
  /** Stops reading, and closes the file (not standard input): resolves once it is closed. */
  close(): Promise<void>;
}

/**
 * How much of an input file is read at a time. The rows of a chunk are made at once and are alive together: the larger
 * the chunk, the more of them outlive a scavenge and are promoted, to be collected later and at more cost (a large CSV
 * import peaked higher, and took more CPU, at 256 KiB: docs/performance.md).
 */
const READ_BYTES = 64 * 1024;

/** The input of bulk work: a file, or standard input for `-`. Unreadable is exit 2, before anything is sent. */
export async function openInput(path: string, io: IOStreams, fs: FileSystem): Promise<Input> {
  if (path === '-') return { chunks: inWords(io.stdin), size: undefined, close: async () => void io.stdin.destroy() };
  try {
    const fd = await openFile(fs, path, 'r');
    const info = fs.fstatSync(fd);
    if (info.isDirectory()) {
      fs.closeSync(fd);
      throw new PlantsError('unreadable_input', `${path} is a directory, not a file of plants`);
    }
    const stream = fileReadStream(fs, path, fd, READ_BYTES);
    const close = () =>
      new Promise<void>((closed) => (stream.closed ? closed() : stream.once('close', closed).destroy()));
    return { chunks: inWords(stream), size: info.size, close };
  } catch (error) {
    if (error instanceof PlantsError) throw error;
    throw new PlantsError(
      'unreadable_input',
      (error as NodeJS.ErrnoException).code === 'ENOENT'
        ? `no such file: ${path}`
        : `cannot read ${path}: ${ioReason(error)}`,
    );
  }
}

/** A stream's chunks, its failure (EIO, a file cut short under it) told as the input's, in words. */
async function* inWords(stream: Readable): AsyncIterable<Buffer | string> {
  try {
    yield* stream;
  } catch (error) {
    throw new PlantsError('unreadable_input', `could not be read on: ${ioReason(error)}`);
  }
}

/**
 * Refuses output files (--rejects, --report) that are one of the files the import reads or
 * writes, or each other, by any name: opening one empties it, and `plants import rejects.ndjson
 * --rejects rejects.ndjson`, or the same with `- < rejects.ndjson`, `/dev/stdin` or
 * `/proc/self/fd/0`, would otherwise lose the very rows it retries. An input is a path, or the
 * identity of standard input's file.
 */
export async function refuseClobbering(
  outputs: { flag: string; path: string }[],
  inputs: { what: string; path?: string; identity?: string | undefined }[],
  fs: FileSystem,
): Promise<void> {
  // stat follows links: /dev/stdin and /proc/self/fd/0 name standard input's own file or pipe.
  const identity = (path: string) => fileIdentity(() => fs.statSync(path)) ?? `path:${resolve(path)}`;
  const seen = new Map<string, string>();
  for (const input of inputs) {
    const id = input.identity ?? (input.path === undefined ? undefined : identity(input.path));
    if (id !== undefined) seen.set(id, input.what);
  }
  for (const { flag, path } of outputs) {
    const id = identity(path);
    const clash = seen.get(id);
    if (clash !== undefined)
      throw new PlantsError('usage', `${flag} ${path} is ${clash}: writing it would destroy it`, {
        hint: 'name another file',
      });
    seen.set(id, `the file of ${flag}`);
  }
}

/** An output file opened (and emptied) before the import starts, so that a bad path is a usage error. */
export async function openOutput(flag: string, path: string, fs: FileSystem): Promise<OutputFile> {
  let stream: ReturnType<typeof fileWriteStream>;
  try {
    stream = fileWriteStream(fs, path, await openFile(fs, path, 'w'));
  } catch (error) {
    throw new PlantsError('usage', `cannot write the ${flag} file ${path}: ${ioReason(error)}`);
  }
  let failure: Error | undefined;
  stream.on('error', (error) => (failure ??= error));
  return {
    write: (text) => void stream.write(text),
    caughtUp: async () => void (await untilTaken(stream)),
    // Resolves once the file is closed: 'close' comes after 'finish', or after a failed write.
    close: async () => {
      if (!stream.closed) await new Promise<void>((closed) => stream.once('close', closed).end());
      return failure === undefined ? undefined : `could not write the ${flag} file ${path}: ${ioReason(failure)}`;
    },
  };
}

export interface OutputFile {
  write(text: string): void;
  /**
   * Resolves once the file has taken what was written but what it buffers (or cannot take more):
   * a writer of many lines waits on it, so that a slow disk or FIFO holds up the work, not memory.
   */
  caughtUp(): Promise<void>;
  /** Flushes and closes; resolves to what went wrong, if any write failed, for the summary to say. */
  close(): Promise<string | undefined>;
}

/**
 * An input's chunks from its start, with its head read already: enough to tell its format, that
 * is through the end of its first line that is not blank, or all of it if it ends first, but never
 * much more than `limit` bytes. Nothing is read twice (standard input may be a pipe).
 */
export async function peekHead(
  stream: AsyncIterable<Buffer | string>,
  limit: number,
): Promise<{ head: Buffer; ended: boolean; all: AsyncIterable<Buffer | string> }> {
  const iterator = stream[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let size = 0;
  let ended = false;
  let textSeen = false;
  for (let lineRead = false; !lineRead && size < limit;) {
    const next = await iterator.next();
    if (next.done === true) {
      ended = true;
      break;
    }
    const chunk = Buffer.from(next.value);
    chunks.push(chunk);
    size += chunk.length;
    // A byte order mark at the start is no text.
    let at = chunks.length === 1 && chunk.subarray(0, 3).equals(BOM) ? 3 : 0;
    if (!textSeen) {
      while (at < chunk.length && isBlank(chunk[at] as number)) at += 1;
      textSeen = at < chunk.length;
    }
    lineRead = textSeen && chunk.indexOf(0x0a, at) !== -1;
  }
  async function* all(): AsyncIterable<Buffer | string> {
    yield* chunks;
    if (ended) return;
    for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value;
  }
  return { head: Buffer.concat(chunks), ended, all: all() };
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** JSON's blanks: a space, a tab, a line feed, a carriage return. */
function isBlank(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}
