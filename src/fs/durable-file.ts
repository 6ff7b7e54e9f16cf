import { basename, dirname, join } from 'node:path';
import { NODE_FS, type FileSystem } from './file-system.js';

/**
 * Writing files so that a full disk, a crash or a kill never costs what was there before.
 *
 * Ours, not write-file-atomic's or atomically's (conf's): both issue one write(2) and ignore its
 * byte count. When a file system fills up, write(2) writes what fits and returns a short count
 * without an error; they then fsync the truncated temporary file and rename it over the good one
 * (a 5,000-plant store became its first 64 KiB). Here every write loops until all its bytes are
 * written or one fails, and a temporary file must have exactly the size written before it
 * replaces anything (test/fs/durable-file.test.ts proves both against a faulty fs).
 */

/** A write that made no progress and gave no reason: the file system has no room left. */
function noRoom(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: the write made no progress (no space left on device)'), { code: 'ENOSPC' });
}

/** Writes all of `bytes` at the descriptor's position (or its end, for O_APPEND), looping on short writes. */
export function writeAllSync(fs: FileSystem, fd: number, bytes: Uint8Array): void {
  for (let offset = 0; offset < bytes.length;) {
    const written = fs.writeSync(fd, bytes, offset, bytes.length - offset);
    if (written <= 0) throw noRoom();
    offset += written;
  }
}

/** The same, without blocking the event loop: for a server's appends. */
export async function writeAll(fs: FileSystem, fd: number, bytes: Uint8Array): Promise<void> {
  for (let offset = 0; offset < bytes.length;) {
    const written = await new Promise<number>((resolve, reject) =>
      fs.write(fd, bytes, offset, bytes.length - offset, null, (error, count) =>
        error ? reject(error) : resolve(count),
      ),
    );
    if (written <= 0) throw noRoom();
    offset += written;
  }
}

export function fdatasync(fs: FileSystem, fd: number): Promise<void> {
  return new Promise((resolve, reject) => fs.fdatasync(fd, (error) => (error ? reject(error) : resolve())));
}

/**
 * Makes a file's creation, rename or removal durable: fsync of the directory that holds it.
 */
export function syncDirectory(
  path: string,
  fs: Pick<FileSystem, 'openSync' | 'fsyncSync' | 'closeSync'> = NODE_FS,
): void {
  const directory = fs.openSync(dirname(path), 'r');
  try {
    fs.fsyncSync(directory);
  } finally {
    fs.closeSync(directory);
  }
}

/** Thrown when the new file is in place but its rename may not survive a crash (the directory fsync failed). */
export class RenamedNotDurable extends Error {
  constructor(override readonly cause: unknown) {
    super(`renamed into place, but the directory could not be synced: ${(cause as Error).message}`);
    this.name = 'RenamedNotDurable';
  }
}

export interface ReplaceOptions {
  /** The file's mode. Default: the mode of the file replaced, else 0o666 less the umask. */
  mode?: number;
  fs?: FileSystem;
  /** Called right before the rename; what it throws leaves `path` untouched, as any failure before the rename. */
  beforeRename?: () => void;
  /**
   * Whether the rename must survive a crash (default true): false for a cache, where the file a
   * crash may bring back is as good as the new one, only older.
   */
  durableRename?: boolean;
}

/**
 * The content of a file to write: whole, or produced in chunks by a function given `write`, which returns each chunk's
 * size in bytes.
 */
export type FileContent = string | Uint8Array | ((write: (chunk: string | Uint8Array) => number) => void);

/** Chunks are gathered to this size before each write(2). */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Replaces the file at `path` (a real path: symlinks already resolved) with `content`, atomically
 * and durably: a temporary file beside it is written in full, fsynced and checked to hold exactly
 * what was written, then renamed over `path`, and the directory fsynced. Until the rename, `path`
 * is untouched; a failure before it removes the temporary file and throws the cause (ENOSPC,
 * EIO…); a failure after it throws RenamedNotDurable. Synchronous: commands wait for it, and a
 * server calls it only for the rare fold of its journal.
 */
export function replaceFileSync(path: string, content: FileContent, options: ReplaceOptions = {}): void {
  const fs = options.fs ?? NODE_FS;
  const mode = options.mode ?? modeOf(fs, path);
  const temp = tempPath(path);
  // O_EXCL: never write through a file (or a link) someone else put at the temporary name.
  const fd = fs.openSync(temp, 'wx', mode ?? 0o666);
  let open = true;
  try {
    // Exactly: open() applied the umask.
    if (mode !== undefined) fs.fchmodSync(fd, mode);
    const written = writeContent(fs, fd, content);
    fs.fsyncSync(fd);
    const size = fs.fstatSync(fd).size;
    if (size !== written)
      throw Object.assign(new Error(`the temporary file holds ${size} of ${written} bytes`), { code: 'EIO' });
    open = false;
    fs.closeSync(fd);
    options.beforeRename?.();
    fs.renameSync(temp, path);
  } catch (error) {
    if (open) ignore(() => fs.closeSync(fd));
    ignore(() => fs.unlinkSync(temp));
    throw error;
  }
  if (options.durableRename === false) return;
  try {
    syncDirectory(path, fs);
  } catch (error) {
    throw new RenamedNotDurable(error);
  }
}

/** The name of a temporary file of replaceFileSync's, after the name of the file it replaces. */
const TEMP_SUFFIX = /^\.[0-9a-z]{8}\.tmp$/;

function tempPath(path: string): string {
  return `${path}.${Math.random().toString(36).slice(2, 10).padEnd(8, '0')}.tmp`;
}

/** What a probe writes: a block, as the first write of a new file on most file systems takes. */
const PROBE_BYTES = 4096;

/**
 * Whether the file system of `path` takes a write now: a block written beside it in a temporary file, fdatasynced and
 * removed; throws why not (ENOSPC, EIO, EROFS…). Named as replaceFileSync's temporary files are, so that one a crash
 * left is removed as theirs are (removeTempFiles). Without blocking the event loop: a server probes so.
 */
export async function probeWrite(path: string, fs: FileSystem = NODE_FS): Promise<void> {
  const temp = tempPath(path);
  const fd = fs.openSync(temp, 'wx');
  try {
    await writeAll(fs, fd, Buffer.alloc(PROBE_BYTES));
    await fdatasync(fs, fd);
  } finally {
    ignore(() => fs.closeSync(fd));
    ignore(() => fs.unlinkSync(temp));
  }
}

/**
 * Removes the temporary files replaceFileSync left beside `paths` (files of one directory), where a
 * crash came between writing one and its rename: regular files named exactly as it names them,
 * nothing else. For a caller that keeps other processes from writing such files (the store's lock
 * holder), and seldom: it reads the whole directory. A failure leaves a file for the next time.
 */
export function removeTempFiles(paths: readonly string[], fs: FileSystem = NODE_FS): void {
  const directory = dirname(paths[0] ?? '.');
  let names: string[];
  try {
    names = fs.readdirSync(directory);
  } catch {
    return;
  }
  const bases = paths.map((path) => basename(path));
  for (const name of names) {
    if (!bases.some((base) => name.startsWith(base) && TEMP_SUFFIX.test(name.slice(base.length)))) continue;
    const temp = join(directory, name);
    ignore(() => {
      if (fs.lstatSync(temp).isFile()) fs.unlinkSync(temp);
    });
  }
}

/** Writes the content in full; returns the bytes written. */
function writeContent(fs: FileSystem, fd: number, content: FileContent): number {
  if (typeof content !== 'function') {
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    writeAllSync(fs, fd, bytes);
    return bytes.length;
  }
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  let written = 0;
  const flush = () => {
    writeAllSync(fs, fd, buffer.subarray(0, used));
    written += used;
    used = 0;
  };
  content((chunk) => {
    // A string takes at most 3 bytes a UTF-16 unit: room is made for that, without measuring it first.
    const most = typeof chunk === 'string' ? chunk.length * 3 : chunk.length;
    if (used + most > CHUNK_BYTES) flush();
    if (most > CHUNK_BYTES) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      writeAllSync(fs, fd, bytes);
      written += bytes.length;
      return bytes.length;
    }
    const size = typeof chunk === 'string' ? buffer.write(chunk, used) : (buffer.set(chunk, used), chunk.length);
    used += size;
    return size;
  });
  flush();
  return written;
}

function modeOf(fs: FileSystem, path: string): number | undefined {
  try {
    return fs.statSync(path).mode & 0o7777;
  } catch {
    return undefined;
  }
}

function ignore(action: () => void): void {
  try {
    action();
  } catch {
    // Cleaning up after a failure: the failure is what gets reported.
  }
}
