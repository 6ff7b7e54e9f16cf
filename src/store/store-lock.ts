import { mkdirSync, rmdirSync, statSync, utimesSync } from 'node:fs';
import { dirname } from 'node:path';
import lockfile from 'proper-lockfile';
import { PlantsError } from '../core/errors.js';
import { storeIoError } from './store-errors.js';

export interface HeldLock {
  release(): Promise<void>;
  /** Set if the lock was lost while held (this process stalled past its staleness). */
  lost?: Error;
}

/** After this long waiting for another process's lock, `onWait` is called: a person should know why nothing happens. */
const SAY_WAITING_AFTER_MS = 1000;

/**
 * The cross-process lock of a store: `<store>.lock`, a directory (proper-lockfile), kept fresh
 * while held and taken over once 10 s stale, so a killed holder blocks others for 10 s at most.
 * Waits `waitMs` at most, in short jittered retries, then gives up with `store_locked`.
 *
 * Each try is proper-lockfile's lockSync: a mkdir and a stat, which take microseconds, where its
 * asynchronous lock sent each through libuv's thread pool (~0.3 ms a trip; a create --local, and a
 * server's lone create, made five for lock and unlock). Between tries this waits without blocking;
 * lockSync does not retry, so the retries are ours, timed as proper-lockfile's would be.
 */
export async function lockStore(path: string, waitMs: number, onWait?: () => void): Promise<HeldLock> {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw storeIoError(path, 'create the directory of', error);
  }
  const held: HeldLock = { release: async () => undefined };
  const started = Date.now();
  let saidWaiting = false;
  for (let attempt = 0; ; attempt += 1) {
    try {
      const release = lockfile.lockSync(path, {
        realpath: false,
        fs: SYNC_FS,
        onCompromised: (error) => {
          held.lost = error;
        },
      });
      held.release = async () => release();
      return held;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw storeIoError(path, 'lock', error);
      const waited = Date.now() - started;
      if (waited >= waitMs) throw storeLockedError(path, error);
      if (!saidWaiting && waited >= SAY_WAITING_AFTER_MS) {
        saidWaiting = true;
        onWait?.();
      }
      await new Promise((retry) => setTimeout(retry, retryDelayMs(attempt)));
    }
  }
}

/**
 * The file system calls lockSync makes (and, holding the lock, its refreshes and its removal at
 * exit; with `realpath: false` it resolves no path), as proper-lockfile's `fs` option: otherwise it
 * copies all of graceful-fs's, whose lazy properties load node:stream and node:fs/promises.
 */
const SYNC_FS = { mkdirSync, rmdirSync, statSync, utimesSync };

/** 5 ms, then 1.3 times longer a try, each randomised up to twice as long (waiters do not retry in step), at most 100 ms. */
function retryDelayMs(attempt: number): number {
  return Math.min(100, 5 * 1.3 ** attempt * (1 + Math.random()));
}

export function storeLockedError(path: string, cause: unknown): PlantsError {
  return new PlantsError('store_locked', `the store ${path} is in use by another process`, {
    hint: `try again; if no plants process is running, remove ${path}.lock`,
    cause,
  });
}
