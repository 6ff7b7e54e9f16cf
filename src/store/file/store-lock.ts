import { dirname } from 'node:path';
import { PlantsError } from '../../core/errors.js';
import { NODE_FS, type BigIntStats } from '../../fs/file-system.js';
import { makeDirectory } from '../../fs/make-directory.js';
import { storeIoError } from '../store-errors.js';
import {
  holdLock,
  lockError,
  look,
  sameDirectory,
  STALE_MS,
  type HeldLock,
  type LockFileSystem,
} from './lock-lease.js';

export { STALE_MS, type HeldLock, type LockFileSystem } from './lock-lease.js';

/** After this long waiting for another process's lock, `onWait` is called: a person should know why nothing happens. */
const SAY_WAITING_AFTER_MS = 1000;

/**
 * The cross-process lock of a store: the directory `<store>.lock`, made by mkdir, which succeeds
 * for one process only. The holder touches it every 5 s; one untouched for 10 s (a killed holder)
 * is taken over, so a dead process blocks others for 12 s at most (touchTime puts a touch up to
 * 2 s ahead); so is a live one that stalled as long, which is why a holder confirms the lock, and
 * so touches it, right before each change it makes (confirm).
 * Waits `waitMs` at most, in short jittered retries, then gives up with `store_locked`.
 *
 * Ours, not proper-lockfile: the same protocol in a third of the code, synchronous tries (a mkdir
 * takes microseconds, a trip through libuv's thread pool far more), and a clear error at once for a
 * lock path that cannot be a lock (a file, a directory with files in it), where proper-lockfile
 * retried for the whole wait and then said ENOTDIR or ENOTEMPTY.
 */
export async function lockStore(
  path: string,
  waitMs: number,
  onWait?: () => void,
  fs: LockFileSystem = NODE_FS,
  stop?: AbortSignal,
): Promise<HeldLock> {
  const lockPath = `${path}.lock`;
  const started = Date.now();
  let saidWaiting = false;
  for (let attempt = 0; ; attempt += 1) {
    // Checked between tries (100 ms apart at most): a stopped wait ends as soon.
    if (stop?.aborted === true) throw interruptedError(path);
    const made = tryLock(path, lockPath, fs);
    if (made !== undefined) return holdLock(path, lockPath, made, fs);
    const waited = Date.now() - started;
    if (waited >= waitMs) throw storeLockedError(path);
    if (!saidWaiting && waited >= SAY_WAITING_AFTER_MS) {
      saidWaiting = true;
      onWait?.();
    }
    await new Promise((retry) => setTimeout(retry, retryDelayMs(attempt)));
  }
}

/**
 * Takes the lock if it is free or stale, and returns its directory as made; undefined if a live
 * holder has it.
 */
function tryLock(path: string, lockPath: string, fs: LockFileSystem): BigIntStats | undefined {
  if (makeLock(path, lockPath, fs)) return look(lockPath, fs);
  const seen = look(lockPath, fs);
  // Released between our mkdir and this look: try again at once.
  if (seen === undefined) return tryLock(path, lockPath, fs);
  if (!seen.isDirectory()) {
    throw new PlantsError('store_io', `${lockPath} is not a lock: plants locks its store with a directory there`, {
      hint: `if no plants process is running, remove ${lockPath}`,
    });
  }
  if (!isStale(seen)) return undefined;
  // Another waiter may have seen the same stale lock, and taken it over since: removing "the stale
  // lock" would then remove its fresh one, and both would hold the store. So look again, and
  // remove only the directory seen, still stale. rmdir cannot be made conditional, so a window
  // remains, between this look and the rmdir: a waiter that stalls there still removes a lock
  // taken over meanwhile. Its holder then fails its next confirm() and writes nothing; only a
  // change it confirmed before the removal can still meet this waiter's.
  const again = look(lockPath, fs);
  if (again === undefined || !sameDirectory(again, seen) || !isStale(again)) return undefined;
  try {
    fs.rmdirSync(lockPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Taken over by another waiter first: theirs now.
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') {
      throw new PlantsError('store_io', `${lockPath} is stale but has files in it: it is not a lock plants made`, {
        hint: `if no plants process is running, remove it (rm -r ${lockPath})`,
      });
    }
    throw lockError(lockPath, 'remove a stale', error);
  }
  try {
    fs.mkdirSync(lockPath);
  } catch {
    return undefined;
  }
  return look(lockPath, fs);
}

/**
 * Makes the lock directory: false if something is at its path already. The store's directory is
 * made only when the mkdir says it is missing, not before every lock: making it costs a mkdir that
 * fails and a stat, for every `--local` command and every lock a server takes, and it is missing
 * only before the store's first write.
 */
function makeLock(path: string, lockPath: string, fs: LockFileSystem): boolean {
  try {
    fs.mkdirSync(lockPath);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // Missing, or a file where a directory should be: makeDirectory says which level, and why.
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw lockError(lockPath, 'make', error);
  }
  try {
    makeDirectory(dirname(path), 0o777, fs);
  } catch (error) {
    throw storeIoError(path, 'create the directory of', error);
  }
  try {
    fs.mkdirSync(lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(lockPath, 'make', error);
    return false;
  }
}

/**
 * Stale: untouched for STALE_MS, or touched in the future beyond it (a clock set back, or a copy
 * from elsewhere), which no live holder on this machine can have done.
 */
function isStale(info: BigIntStats): boolean {
  return Math.abs(Date.now() - Number(info.mtimeMs)) > STALE_MS;
}

/**
 * 5 ms, then 1.3 times longer a try, each randomised up to twice as long (waiters do not retry in step), at most 100
 * ms.
 */
function retryDelayMs(attempt: number): number {
  return Math.min(100, 5 * 1.3 ** attempt * (1 + Math.random()));
}

/** A write not begun because the work was stopped (a second Ctrl-C): nothing of it was written. */
export function interruptedError(path: string): PlantsError {
  return new PlantsError('interrupted', `stopped before writing to ${path}`);
}

function storeLockedError(path: string): PlantsError {
  return new PlantsError('store_locked', `the store ${path} is in use by another process`, {
    hint: `try again; if no plants process is running, remove ${path}.lock`,
  });
}
