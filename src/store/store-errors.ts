import { PlantsError } from '../core/errors.js';
import type { FileSystem, BigIntStats } from '../fs/file-system.js';
import { ioReason, isOutOfSpace } from '../fs/io-reason.js';

/** A failure that left the store as it was: nothing was written, or what was is taken back. */
export function storeIoError(path: string, action: string, error: unknown): PlantsError {
  return new PlantsError('store_io', `could not ${action} the store ${path}: ${ioReason(error)}`, {
    cause: error,
    ...unchangedHint(error),
  });
}

/** For a failure that left the store (or `what` file) as it was, and that more room would cure: what to do. */
export function unchangedHint(error: unknown, what = 'the store'): { hint?: string } {
  return isOutOfSpace(error) ? { hint: `free some space on its file system and try again: ${what} is as it was` } : {};
}

/** A failure after the store may already hold the plants: they may or may not be stored. */
export function storeMaybeWrittenError(path: string, action: string, error: unknown): PlantsError {
  return new PlantsError(
    'store_io',
    `could not ${action} the store ${path}: ${ioReason(error)}; the plants may or may not be stored`,
    {
      cause: error,
      effect: 'unknown',
    },
  );
}

/** The files of a store, by the names users know (file/store-paths.ts): the store file, and its journal beside it. */
export type StorePart = 'store file' | 'journal';

/**
 * A store file or journal path that names something other than a file: a FIFO, a socket, a
 * device, a directory. The store file's path is the user's choice (--store); the journal's is
 * ours, beside it, so what is in its way is named, to be moved.
 */
export function notAFileError(
  path: string,
  info: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean },
  part: StorePart = 'store file',
): PlantsError {
  const kind = info.isDirectory()
    ? 'a directory'
    : info.isFIFO()
      ? 'a FIFO'
      : info.isSocket()
        ? 'a socket'
        : 'a device';
  if (part === 'journal') {
    return new PlantsError('store_io', `${path} is ${kind}, not a store's journal; nothing was read or written`, {
      hint: 'plants keeps the journal of the store at that path: rename or remove what is there, then try again',
    });
  }
  return new PlantsError('store_io', `${path} is ${kind}, not a store file; nothing was read or written`, {
    hint: 'point --store (or PLANTS_STORE) at a regular file, or at a path where none exists yet',
  });
}

/**
 * A store file's (or journal's) stat, undefined when there is none. Anything but a regular file is
 * refused before it is opened: reading a FIFO would wait for a writer forever, past every signal.
 */
export function statFile(fs: FileSystem, path: string, part: StorePart = 'store file'): BigIntStats | undefined {
  let info: BigIntStats;
  try {
    info = fs.statSync(path, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw storeIoError(path, 'read', error);
  }
  if (!info.isFile()) throw notAFileError(path, info, part);
  return info;
}

export function storeCorruptError(path: string, why: string): PlantsError {
  return new PlantsError('store_corrupt', `${path} is not a usable plants store: ${why}; it was left untouched`, {
    hint: 'point --store (or PLANTS_STORE) at another file, or repair or move this one',
  });
}
