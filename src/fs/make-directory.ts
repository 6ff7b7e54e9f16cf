import { dirname, resolve } from 'node:path';
import { syncDirectory } from './durable-file.js';
import { NODE_FS, type FileSystem } from './file-system.js';

/** The calls makeDirectory makes: node:fs, or in tests one that counts or fails them. */
export type DirectoryFileSystem = Pick<FileSystem, 'mkdirSync' | 'statSync' | 'openSync' | 'fsyncSync' | 'closeSync'>;

/**
 * Makes the directory `path` and those missing above it, one level at a time, each with `mode`
 * (less the umask); one there already is fine. Not mkdirSync's `recursive`: on Node 20 it loops
 * forever, at full CPU and deaf to signals, where a level cannot be made yet says ENOENT (anything
 * under /proc). Here each level is tried at most twice, and the real error is thrown. Each level
 * made is made durable: its parent is fsynced, else a power cut could take the new directory away,
 * and the store or token written in it since with it.
 */
export function makeDirectory(path: string, mode = 0o777, fs: DirectoryFileSystem = NODE_FS): void {
  const missing: string[] = [];
  // Up, to the nearest level that exists or can be made.
  for (let current = resolve(path); ; current = dirname(current)) {
    const noParent = tryMake(current, mode, fs);
    if (noParent === undefined) break;
    // At the root, ENOENT has no missing parent to blame.
    if (dirname(current) === current) throw noParent;
    missing.push(current);
  }
  // Down again: a level that still says ENOENT, its parent now there, is the failure.
  for (const level of missing.reverse()) {
    const noParent = tryMake(level, mode, fs);
    if (noParent !== undefined) throw noParent;
  }
}

/**
 * Makes one directory (or finds it there): undefined if done, the ENOENT if its parent is missing;
 * other failures throw. One made here is synced into its parent; one another process made is its.
 */
function tryMake(path: string, mode: number, fs: DirectoryFileSystem): NodeJS.ErrnoException | undefined {
  try {
    fs.mkdirSync(path, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return error as NodeJS.ErrnoException;
    // There before, or made by another process meanwhile; a file (or a dangling link) there is no directory.
    if (code === 'EEXIST' && fs.statSync(path).isDirectory()) return undefined;
    throw error;
  }
  syncDirectory(path, fs);
  return undefined;
}
