import { dirname, resolve } from 'node:path';
import type { FileSystem } from '../../fs/file-system.js';

/**
 * The files of the store at `path`, side by side (docs/store.md): the database file is `path`
 * itself; the others keep the names they have always had on disk, so that every store a plants
 * ever wrote is read as it is. The lock is `<path>.lock` (store-lock.ts).
 */
export function walPathOf(path: string): string {
  return `${path}.journal`;
}

export function walIndexPathOf(path: string): string {
  return `${path}.index`;
}

/**
 * The file a store path names, symlinks followed: the database file is replaced where the link
 * points, never the link itself, so the lock and the WAL must be that file's too, or a process
 * writing through the link and one writing to the file would each hold a lock of its own. A
 * dangling link names its target, which the first write creates (with its directory). A store not
 * created yet is named as given.
 */
export function realStorePath(fs: FileSystem, path: string): string {
  let current = resolve(path);
  // A loop of links stops here; the first read or write then reports ELOOP.
  for (let hops = 0; hops < 40; hops += 1) {
    try {
      return fs.realpathSync(current);
    } catch {
      // Absent, or a link to something absent: follow the link by hand, where realpath gives up.
    }
    try {
      current = resolve(dirname(current), fs.readlinkSync(current));
    } catch {
      // Not a link (absent, or unreadable: the first read or write says why).
      return current;
    }
  }
  return current;
}
