import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';

export interface FaultyFs extends FileSystem {
  /** Bytes the file system still takes; a write beyond them is short, and the next fails with ENOSPC. */
  room: number;
  writes: number;
}

/**
 * node:fs, but with `room` bytes left, as a full disk behaves: a write that does not fit writes
 * what fits and returns a short count without an error; once nothing fits, ENOSPC. With
 * `maxPerWrite`, every write is also cut short there (a pipe, a signal), error or not.
 */
export function faultyFs(room = Infinity, maxPerWrite = Infinity): FaultyFs {
  const take = (length: number): number => {
    if (fs.room <= 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
        code: 'ENOSPC',
        errno: -28,
        syscall: 'write',
      });
    fs.writes += 1;
    const granted = Math.min(length, fs.room, maxPerWrite);
    fs.room -= granted;
    return granted;
  };
  const fs: FaultyFs = {
    ...NODE_FS,
    room,
    writes: 0,
    writeSync: ((fd: number, buffer: Uint8Array, offset: number, length: number) =>
      NODE_FS.writeSync(fd, buffer, offset, take(length))) as FileSystem['writeSync'],
    write: ((
      fd: number,
      buffer: Uint8Array,
      offset: number,
      length: number,
      position: null,
      callback: (error: Error | null, written: number) => void,
    ) => {
      let granted: number;
      try {
        granted = take(length);
      } catch (error) {
        process.nextTick(callback, error, 0);
        return;
      }
      NODE_FS.write(fd, buffer, offset, granted, position, (error, written) => callback(error, written));
    }) as FileSystem['write'],
  };
  return fs;
}

/** The calls of a FileSystem that take a callback (the rest are synchronous). */
const CALLBACK_CALLS = new Set<keyof FileSystem>(['open', 'read', 'write', 'close', 'fdatasync']);

/**
 * node:fs, but each call named in `calls` fails with `code` (EIO: a disk that cannot be read)
 * where `when` says, given the call's first argument (a path or a descriptor): synchronous ones
 * throw, the others call back with the error.
 */
export function failingFs(
  calls: readonly (keyof FileSystem)[],
  code = 'EIO',
  when: (first: unknown) => boolean = () => true,
): FileSystem & { failed: number } {
  const fs = { ...NODE_FS, failed: 0 } as FileSystem & { failed: number };
  const error = (call: string) =>
    Object.assign(new Error(`${code}: injected failure, ${call}`), { code, syscall: call });
  for (const call of calls) {
    const real = NODE_FS[call] as (...args: unknown[]) => unknown;
    (fs as unknown as Record<string, unknown>)[call] = (...args: unknown[]) => {
      if (!when(args[0])) return real(...args);
      fs.failed += 1;
      if (!CALLBACK_CALLS.has(call)) throw error(call);
      process.nextTick(args[args.length - 1] as (error: Error) => void, error(call));
      return undefined;
    };
  }
  return fs;
}

export interface DirectorySyncsFs extends FileSystem {
  /** The directories fsynced, by the path they were opened by, in order. */
  synced: string[];
  /** How many of the next directory fsyncs fail with EIO (as on a disk that fails, or before a power cut). */
  failing: number;
}

/** node:fs, recording each fsync of a directory: what a power cut could undo, and what it cannot. */
export function directorySyncsFs(): DirectorySyncsFs {
  const opened = new Map<number, string>();
  const fs: DirectorySyncsFs = {
    ...NODE_FS,
    synced: [],
    failing: 0,
    openSync: ((path: string, flags: string, mode?: number) => {
      const fd = NODE_FS.openSync(path, flags, mode);
      opened.set(fd, path);
      return fd;
    }) as FileSystem['openSync'],
    closeSync: ((fd: number) => {
      opened.delete(fd);
      NODE_FS.closeSync(fd);
    }) as FileSystem['closeSync'],
    fsyncSync: ((fd: number) => {
      if (NODE_FS.fstatSync(fd).isDirectory()) {
        if (fs.failing > 0) {
          fs.failing -= 1;
          throw Object.assign(new Error('EIO: injected failure, fsync'), { code: 'EIO', syscall: 'fsync' });
        }
        fs.synced.push(opened.get(fd) ?? `fd ${fd}`);
      }
      NODE_FS.fsyncSync(fd);
    }) as FileSystem['fsyncSync'],
  };
  return fs;
}
