import { statSync, type BigIntStats } from 'node:fs';
import { PlantsError } from '../core/errors.js';

export function storeIoError(path: string, action: string, error: unknown): PlantsError {
  return new PlantsError('store_io', `could not ${action} the store ${path} (${reasonOf(error)})`, { cause: error });
}

/** A failure after the store may already hold the plants: they may or may not be stored. */
export function storeMaybeWrittenError(path: string, action: string, error: unknown): PlantsError {
  return new PlantsError('store_io', `could not ${action} the store ${path} (${reasonOf(error)}): the plants may or may not be stored`, {
    cause: error,
    effect: 'unknown',
  });
}

/** A store (or its journal or lock) path that names something other than a file: a FIFO, a socket, a device, a directory. */
export function notAFileError(path: string, info: { isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): PlantsError {
  const kind = info.isDirectory() ? 'a directory' : info.isFIFO() ? 'a FIFO' : info.isSocket() ? 'a socket' : 'a device';
  return new PlantsError('store_io', `${path} is ${kind}, not a store file; nothing was read or written`, {
    hint: 'point --store (or PLANTS_STORE) at a regular file, or at a path where none exists yet',
  });
}

/**
 * A store file's (or journal's) stat, undefined when there is none. Anything but a regular file is
 * refused before it is opened: reading a FIFO would wait for a writer forever, past every signal.
 */
export function statFile(path: string): BigIntStats | undefined {
  let info: BigIntStats;
  try {
    info = statSync(path, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw storeIoError(path, 'read', error);
  }
  if (!info.isFile()) throw notAFileError(path, info);
  return info;
}

function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

export function storeCorruptError(path: string, why: string): PlantsError {
  return new PlantsError('store_corrupt', `${path} is not a usable plants store: ${why}; it was left untouched`, {
    hint: 'point --store (or PLANTS_STORE) at another file, or repair or move this one',
  });
}
