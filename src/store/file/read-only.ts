import { PlantsError } from '../../core/errors.js';
import { W_OK, type FileSystem } from '../../fs/file-system.js';
import { statFile } from '../store-errors.js';

/** A file of a store that plants must not write: its path, its mode, and whether only this user may not. */
interface ReadOnlyFile {
  path: string;
  mode: number;
  forThisUser: boolean;
}

/**
 * The files of a store (its database file and WAL, those there are) that plants must not write:
 * one whose mode lets nobody write it (`chmod a-w`: the user made the store read-only, and root,
 * whom the kernel would let write it, is refused as well), or one the kernel would not let this
 * user write (access(2): another user's file). Either file makes the whole store read-only: a
 * write appends to the WAL and, at a checkpoint, replaces the database file and removes the WAL.
 * A read-only file system is not counted: it is a state of the machine, not the user's choice
 * (remounted read-write after a check, it takes writes again), and a write there fails with EROFS.
 */
function readOnlyFiles(fs: FileSystem, storePath: string, walPath: string): ReadOnlyFile[] {
  const found: ReadOnlyFile[] = [];
  for (const [path, part] of [
    [storePath, 'store file'],
    [walPath, 'journal'],
  ] as const) {
    const info = statFile(fs, path, part);
    if (info === undefined) continue;
    const mode = Number(info.mode) & 0o7777;
    if ((mode & 0o222) === 0) {
      found.push({ path, mode, forThisUser: false });
      continue;
    }
    try {
      fs.accessSync(path, W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') found.push({ path, mode, forThisUser: true });
    }
  }
  return found;
}

/** Whether plants must not write the store at `path` (readOnlyFiles): it then writes no index of it either. */
export function isReadOnly(fs: FileSystem, path: string, walPath: string): boolean {
  return readOnlyFiles(fs, path, walPath).length > 0;
}

/**
 * Throws `store_io` (effect none) where plants must not write the store at `path`: called before
 * each write, and by a server as it starts (a service that can never take a write is a mistake of
 * its setup, better said at once).
 */
export function refuseReadOnly(fs: FileSystem, path: string, walPath: string): void {
  const files = readOnlyFiles(fs, path, walPath);
  const [first] = files;
  if (first === undefined) return;
  const mode = `mode ${first.mode.toString(8).padStart(4, '0')}`;
  const which = first.path === path ? mode : `its journal ${walPath} has ${mode}`;
  const why = first.forThisUser ? `read-only for this user (${which}: permission denied)` : `read-only (${which})`;
  const chmod = files.filter((file) => !file.forThisUser).map((file) => file.path);
  const cure = first.forThisUser
    ? `run plants as a user who may write ${first.path}`
    : `make it writable again (chmod u+w ${chmod.join(' ')})`;
  throw new PlantsError('store_io', `the store ${path} is ${why}: nothing was written`, {
    hint: `reads work as they are; to write to it, ${cure}`,
  });
}
