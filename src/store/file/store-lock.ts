import { dirname } from 'node:path';
import { PlantsError } from '../../core/errors.js';
import { NODE_FS, type FileSystem, type BigIntStats } from '../../fs/file-system.js';
import { ioReason } from '../../fs/io-reason.js';
import { makeDirectory, type DirectoryFileSystem } from '../../fs/make-directory.js';
import { storeIoError, unchangedHint } from '../store-errors.js';

export interface HeldLock {
  /**
   * Throws `store_locked` (effect none) unless the lock directory is still the one this process
   * made and last touched; then touches it (to touchTime, unless it has that time already). Called
   * right before each change to the store on disk: a holder that stalled past STALE_MS (SIGSTOP, a
   * long GC, a huge fold) may have been taken over, and must not write beside the new holder; and
   * one that did not, but whose lock went stale meanwhile, must not make its change while a waiter
   * may take the lock over. The touch gives the change that follows the whole of STALE_MS: the
   * refresh timer cannot run during a synchronous fold, so a fold renews the lock itself (confirm)
   * as it writes.
   */
  confirm(): void;
  /** Removes the lock, if it is still this process's: a lock taken over is the new holder's. */
  release(): void;
}

/** The calls the lock makes: node:fs, or in tests one through which another "process" acts. */
export type LockFileSystem = Pick<FileSystem, 'mkdirSync' | 'lstatSync' | 'rmdirSync' | 'utimesSync'> & DirectoryFileSystem;

/** A lock whose directory has not been touched for this long is a dead holder's, and is taken over. */
export const STALE_MS = 10_000;
/** How often a holder touches its lock, to show it is alive. */
const REFRESH_MS = STALE_MS / 2;
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
export async function lockStore(path: string, waitMs: number, onWait?: () => void, fs: LockFileSystem = NODE_FS, stop?: AbortSignal): Promise<HeldLock> {
  const lockPath = `${path}.lock`;
  const started = Date.now();
  let saidWaiting = false;
  for (let attempt = 0; ; attempt += 1) {
    // Checked between tries (100 ms apart at most): a stopped wait ends as soon.
    if (stop?.aborted === true) throw interruptedError(path);
    const made = tryLock(path, lockPath, fs);
    if (made !== undefined) return hold(path, lockPath, made, fs);
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

/** The lock path's own stat (a link is not followed), undefined when nothing is there. */
function look(lockPath: string, fs: LockFileSystem): BigIntStats | undefined {
  try {
    return fs.lstatSync(lockPath, { bigint: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw lockError(lockPath, 'look at', error);
  }
}

/**
 * The same lock directory, untouched since: another one made at the path has another inode, or
 * the same one reused and a later mtime.
 */
function sameDirectory(a: BigIntStats, b: BigIntStats): boolean {
  return a.ino === b.ino && a.mtimeNs === b.mtimeNs;
}

/**
 * Stale: untouched for STALE_MS, or touched in the future beyond it (a clock set back, or a copy
 * from elsewhere), which no live holder on this machine can have done.
 */
function isStale(info: BigIntStats): boolean {
  return Math.abs(Date.now() - Number(info.mtimeMs)) > STALE_MS;
}

/**
 * The time a holder touches its lock to: now, rounded up to an even second. Every file system
 * stores a whole even second exactly (FAT keeps two-second steps; libuv passes a time with a
 * fraction as a double, which can come back off by nanoseconds), so the look after a touch can
 * require the very mtime set: a directory another process made there meanwhile, even one given the
 * same inode number, has an mtime of its own. Rounded up, not down: the touch gives a full
 * STALE_MS before the lock looks stale, and up to 2 s more, where isStale allows a lock as far in
 * the future.
 */
function touchTime(): number {
  return Math.ceil(Date.now() / 2000) * 2000;
}

/** The lock, held: `made` is its directory as tryLock made it. */
function hold(path: string, lockPath: string, made: BigIntStats, fs: LockFileSystem): HeldLock {
  /** The lock directory as this process made it and last touched it. */
  let mine = made;
  /** Why the lock is no longer this process's (taken over, removed, or no longer to be touched); undefined while it is. */
  let lost: Error | undefined;
  /** Looks at the lock, unless it is known lost: why it is not this process's, if it is not. */
  const check = (): Error | undefined => {
    if (lost === undefined) {
      try {
        const now = look(lockPath, fs);
        if (now === undefined) lost = new Error('the lock was removed');
        else if (!sameDirectory(now, mine)) lost = new Error('the lock was taken over');
      } catch (error) {
        lost = error as Error;
      }
    }
    return lost;
  };
  /**
   * Touches the lock if it is still this process's, and looks again: it must be the same directory
   * with the mtime just set, which is recorded for the next check. Why it is lost, if it is.
   */
  const renew = (): Error | undefined => {
    if (check() !== undefined) return lost;
    const time = touchTime();
    const timeNs = BigInt(time) * 1_000_000n;
    // Touched to this time already: a touch would change nothing a waiter looks at, and would cost
    // a metadata write beside each append's fdatasync, for every batch a busy server writes.
    if (mine.mtimeNs === timeNs) return undefined;
    try {
      fs.utimesSync(lockPath, new Date(time), new Date(time));
      const touched = look(lockPath, fs);
      if (touched === undefined) lost = new Error('the lock was removed');
      else if (touched.ino !== mine.ino || touched.mtimeNs !== timeNs) lost = new Error('the lock was taken over');
      else mine = touched;
    } catch (error) {
      lost = error as Error;
    }
    return lost;
  };
  const refresh = setInterval(() => {
    if (renew() !== undefined) clearInterval(refresh);
  }, REFRESH_MS);
  refresh.unref();
  return {
    confirm: () => {
      const why = renew();
      if (why !== undefined) throw lockLostError(path, why);
    },
    release: () => {
      clearInterval(refresh);
      if (check() !== undefined) return;
      try {
        fs.rmdirSync(lockPath);
      } catch {
        // Already gone: nothing to release.
      }
    },
  };
}

/**
 * Runs `work` under a lease of the lock, taken by `take` first and released after: the writes of
 * one hold take it once. `leased()` gives the lease for the next write: the same, unless it was
 * lost after the write before (the process stalled past STALE_MS and it was taken over, or someone
 * removed it), when it is taken anew, waiting as any other process would. One lost before the
 * first write fails that write, at its confirm().
 */
export async function underLease<T>(take: () => Promise<HeldLock>, work: (leased: () => Promise<HeldLock>) => Promise<T>): Promise<T> {
  let lease = await take();
  let used = false;
  try {
    return await work(async () => {
      if (used && !isStillHeld(lease)) {
        lease.release();
        lease = await take();
      }
      used = true;
      return lease;
    });
  } finally {
    lease.release();
  }
}

function isStillHeld(lease: HeldLock): boolean {
  try {
    lease.confirm();
    return true;
  } catch {
    return false;
  }
}

/** 5 ms, then 1.3 times longer a try, each randomised up to twice as long (waiters do not retry in step), at most 100 ms. */
function retryDelayMs(attempt: number): number {
  return Math.min(100, 5 * 1.3 ** attempt * (1 + Math.random()));
}

function lockError(lockPath: string, action: string, error: unknown): PlantsError {
  return new PlantsError('store_io', `could not ${action} the lock ${lockPath}: ${ioReason(error)}`, {
    cause: error,
    ...unchangedHint(error),
  });
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

/** A lock this process held, and lost before a change: the change was not made. */
function lockLostError(path: string, why: Error): PlantsError {
  return new PlantsError(
    'store_locked',
    `the store ${path} is in use by another process: the lock this process held was lost (${why.message}; a process that stalls for over ${STALE_MS / 1000} s loses it), so nothing of this call was written`,
    { hint: 'try again', cause: why },
  );
}
