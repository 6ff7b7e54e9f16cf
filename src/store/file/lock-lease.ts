import { PlantsError } from '../../core/errors.js';
import type { BigIntStats, FileSystem } from '../../fs/file-system.js';
import { ioReason } from '../../fs/io-reason.js';
import type { DirectoryFileSystem } from '../../fs/make-directory.js';
import { unchangedHint } from '../store-errors.js';

export interface HeldLock {
  /**
   * Throws `store_locked` (effect none) unless the lock directory is still the one this process
   * made and last touched; then touches it (to touchTime, unless it has that time already). Called
   * right before each change to the store on disk: a holder that stalled past STALE_MS (SIGSTOP, a
   * long GC, a huge checkpoint) may have been taken over, and must not write beside the new holder;
   * and one that did not, but whose lock went stale meanwhile, must not make its change while a
   * waiter may take the lock over. The touch gives the change that follows the whole of STALE_MS:
   * the refresh timer cannot run during a synchronous checkpoint, so a checkpoint renews the lock
   * itself (confirm) as it writes.
   */
  confirm(): void;
  /** Removes the lock, if it is still this process's: a lock taken over is the new holder's. */
  release(): void;
}

/** The calls the lock makes: node:fs, or in tests one through which another "process" acts. */
export type LockFileSystem = Pick<FileSystem, 'mkdirSync' | 'lstatSync' | 'rmdirSync' | 'utimesSync'> &
  DirectoryFileSystem;

/** A lock whose directory has not been touched for this long is a dead holder's, and is taken over. */
export const STALE_MS = 10_000;
/** How often a holder touches its lock, to show it is alive. */
const REFRESH_MS = STALE_MS / 2;

/** The lock path's own stat (a link is not followed), undefined when nothing is there. */
export function look(lockPath: string, fs: LockFileSystem): BigIntStats | undefined {
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
export function sameDirectory(a: BigIntStats, b: BigIntStats): boolean {
  return a.ino === b.ino && a.mtimeNs === b.mtimeNs;
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

/** The lock, held: `made` is its directory as it was made (store-lock.ts). */
export function holdLock(path: string, lockPath: string, made: BigIntStats, fs: LockFileSystem): HeldLock {
  /** The lock directory as this process made it and last touched it. */
  let mine = made;
  /**
   * Why the lock is no longer this process's (taken over, removed, or no longer to be touched); undefined while it is.
   */
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
export async function underLease<T>(
  take: () => Promise<HeldLock>,
  work: (leased: () => Promise<HeldLock>) => Promise<T>,
): Promise<T> {
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

/**
 * The holds of one store in one process, one at a time (a server's batches, an import's), each
 * under a lease of the lock, taken for it (underLease).
 */
export class Holds {
  /** Whether a hold is under way: while its lease is held, no other process writes. */
  holding = false;
  private last: Promise<unknown> = Promise.resolve();

  run<T>(take: () => Promise<HeldLock>, work: (leased: () => Promise<HeldLock>) => Promise<T>): Promise<T> {
    const run = this.last.then(() =>
      underLease(take, async (leased) => {
        this.holding = true;
        try {
          return await work(leased);
        } finally {
          this.holding = false;
        }
      }),
    );
    this.last = run.catch(() => undefined);
    return run;
  }

  /** Settles once the holds under way have ended. */
  done(): Promise<unknown> {
    return this.last;
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

export function lockError(lockPath: string, action: string, error: unknown): PlantsError {
  return new PlantsError('store_io', `could not ${action} the lock ${lockPath}: ${ioReason(error)}`, {
    cause: error,
    ...unchangedHint(error),
  });
}

/** A lock this process held, and lost before a change: the change was not made. */
function lockLostError(path: string, why: Error): PlantsError {
  return new PlantsError(
    'store_locked',
    `the store ${path} is in use by another process: the lock this process held was lost (${why.message}; a ` +
      `process that stalls for over ${STALE_MS / 1000} s loses it), so nothing of this call was written`,
    { hint: 'try again', cause: why },
  );
}
