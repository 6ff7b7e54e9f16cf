import { mkdir } from 'node:fs/promises';
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
 * Waits about `waitMs`, in short jittered retries, then gives up with `store_locked`.
 */
export async function lockStore(path: string, waitMs: number, onWait?: () => void): Promise<HeldLock> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    throw storeIoError(path, 'create the directory of', error);
  }
  const held: HeldLock = { release: async () => undefined };
  const waiting = onWait === undefined ? undefined : setTimeout(onWait, SAY_WAITING_AFTER_MS);
  try {
    held.release = await lockfile.lock(path, {
      realpath: false,
      // Once backed off, each wait is ~150 ms: about waitMs in all.
      retries: { retries: Math.ceil(waitMs / 150), minTimeout: 5, maxTimeout: 100, factor: 1.3, randomize: true },
      onCompromised: (error) => {
        held.lost = error;
      },
    });
    return held;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') throw storeLockedError(path, error);
    throw storeIoError(path, 'lock', error);
  } finally {
    clearTimeout(waiting);
  }
}

export function storeLockedError(path: string, cause: unknown): PlantsError {
  return new PlantsError('store_locked', `the store ${path} is in use by another process`, {
    hint: `try again; if no plants process is running, remove ${path}.lock`,
    cause,
  });
}
