import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';

/** node:fs, counting the bytes read through it, by the path each file was opened by. */
export function countingFs(): FileSystem & { bytesRead: Map<string, number>; total(): number } {
  const paths = new Map<number, string>();
  const bytesRead = new Map<string, number>();
  return {
    ...NODE_FS,
    bytesRead,
    total: () => [...bytesRead.values()].reduce((sum, bytes) => sum + bytes, 0),
    openSync: ((path: string, flags: string, mode?: number) => {
      const fd = NODE_FS.openSync(path, flags, mode);
      paths.set(fd, path);
      return fd;
    }) as FileSystem['openSync'],
    readSync: ((fd: number, ...rest: unknown[]) => {
      const got = (NODE_FS.readSync as (...args: unknown[]) => number)(fd, ...rest);
      const path = paths.get(fd) ?? '?';
      bytesRead.set(path, (bytesRead.get(path) ?? 0) + got);
      return got;
    }) as FileSystem['readSync'],
  };
}
