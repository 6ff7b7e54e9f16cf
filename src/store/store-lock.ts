import { lstatSync, mkdirSync, rmdirSync, utimesSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { PlantsError } from '../core/errors.js';
import { ioReason } from './io-reason.js';
import { makeDirectory } from './make-directory.js';
import { storeIoError, unchangedHint } from './store-errors.js';

export interface HeldLock {
  release(): void;
  /** Set if the lock was lost while held (this process stalled past its staleness, another took it). */
  lost?: Error;
}

/** A lock whose directory has not been touched for this long is a dead holder's, and is taken over. */
export const STALE_MS = 10_000;
/** How often a holder touches its lock, to show it is alive. */
const REFRESH_MS = STALE_MS / 2;
/** After this long waiting for another process's lock, `onWait` is called: a person should know why nothing happens. */
const SAY_WAITING_AFTER_MS = 1000;

/**
 * The cross-process lock of a store: the directory `<store>.lock`, made by mkdir, which succeeds
 * for one process only. The holder touches it every 5 s; one untouched for 10 s (a killed holder)
 * is taken over, so a dead process blocks others for 10 s at most. Waits `waitMs` at most, in
 * short jittered retries, then gives up with `store_locked`.
 *
 * Ours, not proper-lockfile: the same protocol in a third of the code, synchronous tries (a mkdir
 * takes microseconds, a trip through libuv's thread pool ~0.3 ms), and a clear error at once for a
 * lock path that cannot be a lock (a file, a directory with files in it), where proper-lockfile
 * retried for the whole wait and then said ENOTDIR or ENOTEMPTY.
 */
export async function lockStore(path: string, waitMs: number, onWait?: () => void): Promise<HeldLock> {
  const lockPath = `${path}.lock`;
  try {
    makeDirectory(dirname(path));
  } catch (error) {
    throw storeIoError(path, 'create the directory of', error);
  }
  const started = Date.now();
  let saidWaiting = false;
  for (let attempt = 0; ; attempt += 1) {
    if (tryLock(lockPath)) return hold(lockPath);
    const waited = Date.now() - started;
    if (waited >= waitMs) throw storeLockedError(path);
    if (!saidWaiting && waited >= SAY_WAITING_AFTER_MS) {
      saidWaiting = true;
      onWait?.();
    }
    await new Promise((retry) => setTimeout(retry, retryDelayMs(attempt)));
  }
}

/** Takes the lock if it is free or stale; false if a live holder has it. */
function tryLock(lockPath: string): boolean {
  try {
    mkdirSync(lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(lockPath, 'make', error);
  }
  let info: Stats;
  try {
    info = lstatSync(lockPath);
  } catch {
    // Released between our mkdir and this look: try again at once.
    return tryLock(lockPath);
  }
  if (!info.isDirectory()) {
    throw new PlantsError('store_io', `${lockPath} is not a lock: plants locks its store with a directory there`, {
      hint: `if no plants process is running, remove ${lockPath}`,
    });
  }
  if (!isStale(info.mtimeMs)) return false;
  try {
    rmdirSync(lockPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Taken over by another waiter first: theirs now.
    if (code === 'ENOENT') return false;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') {
      throw new PlantsError('store_io', `${lockPath} is stale but has files in it: it is not a lock plants made`, {
        hint: `if no plants process is running, remove it (rm -r ${lockPath})`,
      });
    }
    throw lockError(lockPath, 'remove a stale', error);
  }
  try {
    mkdirSync(lockPath);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stale: untouched for STALE_MS, or touched in the future beyond it (a clock set back, or a copy
 * from elsewhere), which no live holder on this machine can have done.
 */
function isStale(mtimeMs: number): boolean {
  return Math.abs(Date.now() - mtimeMs) > STALE_MS;
}

function hold(lockPath: string): HeldLock {
  const held: HeldLock = { release: () => undefined };
  let touched = lstatSync(lockPath).mtimeMs;
  const refresh = setInterval(() => {
    try {
      // Someone else's now: they took it over as stale (this process stalled), or removed it.
      if (lstatSync(lockPath).mtimeMs !== touched) throw new Error('the lock was taken over');
      const now = new Date();
      utimesSync(lockPath, now, now);
      touched = lstatSync(lockPath).mtimeMs;
    } catch (error) {
      held.lost = error as Error;
      clearInterval(refresh);
    }
  }, REFRESH_MS);
  refresh.unref();
  held.release = () => {
    clearInterval(refresh);
    if (held.lost !== undefined) return;
    try {
      rmdirSync(lockPath);
    } catch {
      // Already gone: nothing to release.
    }
  };
  return held;
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

export function storeLockedError(path: string, cause?: unknown): PlantsError {
  return new PlantsError('store_locked', `the store ${path} is in use by another process`, {
    hint: `try again; if no plants process is running, remove ${path}.lock`,
    ...(cause === undefined ? {} : { cause }),
  });
}
