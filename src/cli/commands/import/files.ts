import { open } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { PlantsError } from '../../../core/errors.js';
import { stringifyJson } from '../../../core/json.js';
import type { Row } from '../../../import/rows.js';
import type { IOStreams } from '../../context.js';

export interface Input {
  stream: Readable;
  /** Bytes in all, when known (a file): the progress line's 100%. */
  size: number | undefined;
  bytesRead(): number;
}

/** The input of an import: a file, or standard input for `-`. Unreadable is exit 2, before anything is sent. */
export async function openInput(path: string, io: IOStreams): Promise<Input> {
  if (path === '-') return { stream: io.stdin, size: undefined, bytesRead: () => 0 };
  try {
    const handle = await open(path, 'r');
    const info = await handle.stat();
    if (info.isDirectory()) {
      await handle.close();
      throw new PlantsError('unreadable_input', `${path} is a directory, not a file of plants`);
    }
    const stream = handle.createReadStream({ highWaterMark: 256 * 1024 });
    return { stream, size: info.size, bytesRead: () => stream.bytesRead };
  } catch (error) {
    if (error instanceof PlantsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new PlantsError('unreadable_input', code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path} (${code})`);
  }
}

export interface RejectsFile {
  write(row: Row): void;
  /** Flushes and closes; throws if any write failed, so that no reject goes missing unnoticed. */
  close(): Promise<void>;
}

/** The --rejects file, opened (and emptied) before the import starts, so a bad path is a usage error. */
export async function openRejects(path: string): Promise<RejectsFile> {
  let stream: Writable;
  try {
    stream = (await open(path, 'w')).createWriteStream();
  } catch (error) {
    throw new PlantsError('usage', `cannot write the rejects file ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
  let failure: Error | undefined;
  stream.on('error', (error) => (failure ??= error));
  return {
    write: (row) => void stream.write(`${rejectLine(row)}\n`),
    close: () =>
      new Promise((resolve, reject) => {
        stream.end(() => {
          if (failure === undefined) resolve();
          else reject(new PlantsError('store_io', `could not write the rejects file ${path} (${(failure as NodeJS.ErrnoException).code ?? failure.message})`));
        });
      }),
  };
}

/** A row not created, re-importable as it is: the plant, or the row as it was read. */
function rejectLine(row: Row): string {
  if (row.error === undefined) return stringifyJson(row.plant);
  return typeof row.raw === 'string' ? row.raw : stringifyJson(row.raw);
}
