import { existsSync, lstatSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NODE_FS } from '../../src/fs/file-system.js';
import { lockStore, STALE_MS, type LockFileSystem } from '../../src/store/file/store-lock.js';
import { tempDir } from '../helpers/temp.js';

/** The lock directory's identity: what another process's rmdir and mkdir change. */
const identity = (lockPath: string) => {
  const info = statSync(lockPath, { bigint: true });
  return `${info.ino}:${info.mtimeNs}`;
};

describe('the store lock', () => {
  it('is a directory beside the store, for one holder at a time, removed on release', async () => {
    const path = join(await tempDir(), 'plants.json');
    const lock = await lockStore(path, 1_000);
    expect(existsSync(`${path}.lock`)).toBe(true);
    await expect(lockStore(path, 50)).rejects.toMatchObject({ code: 'store_locked' });
    lock.release();
    expect(existsSync(`${path}.lock`)).toBe(false);
    (await lockStore(path, 50)).release();
  });

  it("takes the lock with one mkdir where the store's directory is there, and makes a missing one first", async () => {
    const calls: string[] = [];
    const fs: LockFileSystem = {
      ...NODE_FS,
      mkdirSync: ((dir: string, mode?: number) => {
        calls.push(`mkdir ${dir}`);
        return NODE_FS.mkdirSync(dir, mode);
      }) as LockFileSystem['mkdirSync'],
      statSync: ((file: string, options?: object) => {
        calls.push(`stat ${file}`);
        return NODE_FS.statSync(file, options);
      }) as LockFileSystem['statSync'],
    };
    const dir = await tempDir();
    const path = join(dir, 'plants.json');
    (await lockStore(path, 1_000, undefined, fs)).release();
    expect(calls).toEqual([`mkdir ${path}.lock`]);
    calls.length = 0;
    const deeper = join(dir, 'a', 'b', 'plants.json');
    (await lockStore(deeper, 1_000, undefined, fs)).release();
    expect(calls).toEqual([
      `mkdir ${deeper}.lock`,
      `mkdir ${join(dir, 'a', 'b')}`,
      `mkdir ${join(dir, 'a')}`,
      `mkdir ${join(dir, 'a', 'b')}`,
      `mkdir ${deeper}.lock`,
    ]);
    expect(statSync(join(dir, 'a', 'b')).isDirectory()).toBe(true);
  });

  it('takes over a lock touched last in the future beyond staleness (a clock set back), at once', async () => {
    const path = join(await tempDir(), 'plants.json');
    await mkdir(`${path}.lock`);
    const later = new Date(Date.now() + 60_000);
    await utimes(`${path}.lock`, later, later);
    const started = Date.now();
    (await lockStore(path, 30_000)).release();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses at once, naming it, a lock path that is a file', async () => {
    const path = join(await tempDir(), 'plants.json');
    await writeFile(`${path}.lock`, 'not a lock');
    const started = Date.now();
    await expect(lockStore(path, 30_000)).rejects.toMatchObject({
      code: 'store_io',
      message: `${path}.lock is not a lock: plants locks its store with a directory there`,
      hint: `if no plants process is running, remove ${path}.lock`,
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses at once a stale lock directory with files in it, which plants never makes', async () => {
    const path = join(await tempDir(), 'plants.json');
    await mkdir(`${path}.lock`);
    await writeFile(join(`${path}.lock`, 'something'), '');
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, longAgo, longAgo);
    await expect(lockStore(path, 30_000)).rejects.toMatchObject({
      code: 'store_io',
      message: `${path}.lock is stale but has files in it: it is not a lock plants made`,
      hint: `if no plants process is running, remove it (rm -r ${path}.lock)`,
    });
  });

  it(
    'is confirmed by its holder only while it is the directory the holder made: one taken over is lost, and left ' +
      'to its new holder',
    async () => {
      const path = join(await tempDir(), 'plants.json');
      const lock = await lockStore(path, 1_000);
      lock.confirm();
      // The holder stalled; another process took the lock over as stale (rmdir, mkdir).
      rmdirSync(`${path}.lock`);
      mkdirSync(`${path}.lock`);
      const theirs = identity(`${path}.lock`);
      expect(() => lock.confirm()).toThrow(
        expect.objectContaining({
          code: 'store_locked',
          effect: 'none',
          message: expect.stringContaining('nothing of this call was written'),
        }),
      );
      lock.release();
      expect(identity(`${path}.lock`)).toBe(theirs);
    },
  );

  it('is lost when removed while held, and confirms nothing after', async () => {
    const path = join(await tempDir(), 'plants.json');
    const lock = await lockStore(path, 1_000);
    rmdirSync(`${path}.lock`);
    expect(() => lock.confirm()).toThrow(
      expect.objectContaining({ code: 'store_locked', message: expect.stringContaining('the lock was removed') }),
    );
    // Made again by another process: still not this holder's.
    mkdirSync(`${path}.lock`);
    expect(() => lock.confirm()).toThrow(expect.objectContaining({ code: 'store_locked' }));
    lock.release();
    expect(existsSync(`${path}.lock`)).toBe(true);
  });

  it('takes over a stale lock only if it is still the one it saw stale, not one another waiter took over', async () => {
    const path = join(await tempDir(), 'plants.json');
    const lockPath = `${path}.lock`;
    await mkdir(lockPath);
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(lockPath, longAgo, longAgo);
    // This waiter sees the lock stale; right after, another waiter removes it and makes its own.
    let theirs: string | undefined;
    const fs: LockFileSystem = {
      ...NODE_FS,
      lstatSync: ((file: string, options: { bigint: true }) => {
        const info = NODE_FS.lstatSync(file, options);
        if (file === lockPath && theirs === undefined) {
          rmdirSync(lockPath);
          mkdirSync(lockPath);
          theirs = identity(lockPath);
        }
        return info;
      }) as LockFileSystem['lstatSync'],
    };
    await expect(lockStore(path, 200, undefined, fs)).rejects.toMatchObject({ code: 'store_locked' });
    expect(theirs).toBeDefined();
    expect(identity(lockPath)).toBe(theirs);
    expect(lstatSync(lockPath).isDirectory()).toBe(true);
  });

  describe('kept fresh by its holder', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it(
      'is touched by each confirm: a change after one has the whole staleness margin, however long since the ' +
        'last refresh',
      async () => {
        const path = join(await tempDir(), 'plants.json');
        // The clock only: the refresh timer cannot run, as during a synchronous fold.
        vi.useFakeTimers({ toFake: ['Date'] });
        const lock = await lockStore(path, 1_000);
        vi.setSystemTime(Date.now() + STALE_MS - 1_000);
        lock.confirm();
        vi.setSystemTime(Date.now() + STALE_MS - 1_000);
        // A waiter now, twice the margin after the lock was made: not stale, not taken over.
        await expect(lockStore(path, 0)).rejects.toMatchObject({ code: 'store_locked' });
        lock.confirm();
        lock.release();
        expect(existsSync(`${path}.lock`)).toBe(false);
      },
    );

    it('is not touched again by a confirm that would set the time it has: a server confirms every batch', async () => {
      const path = join(await tempDir(), 'plants.json');
      vi.useFakeTimers({ toFake: ['Date'] });
      let touches = 0;
      const fs: LockFileSystem = {
        ...NODE_FS,
        utimesSync: ((file: string, atime: Date, mtime: Date) => {
          touches += 1;
          NODE_FS.utimesSync(file, atime, mtime);
        }) as LockFileSystem['utimesSync'],
      };
      const lock = await lockStore(path, 1_000, undefined, fs);
      for (let batch = 0; batch < 100; batch += 1) lock.confirm();
      expect(touches).toBe(1);
      vi.setSystemTime(Date.now() + 2_000);
      lock.confirm();
      expect(touches).toBe(2);
      lock.release();
    });

    it('does not take back, by its refresh, a lock another process made there with the same inode', async () => {
      const path = join(await tempDir(), 'plants.json');
      const lockPath = `${path}.lock`;
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      // Another process takes the lock over right after the refresh's touch, and its directory is
      // given the inode number the holder's had (rmdir and mkdir may reuse it).
      let ino: bigint | undefined;
      let theirs: string | undefined;
      const fs: LockFileSystem = {
        ...NODE_FS,
        lstatSync: ((file: string, options: { bigint: true }) => {
          const info = NODE_FS.lstatSync(file, options);
          if (file !== lockPath) return info;
          ino ??= info.ino;
          return Object.assign(Object.create(Object.getPrototypeOf(info) as object) as typeof info, info, { ino });
        }) as LockFileSystem['lstatSync'],
        utimesSync: ((file: string, atime: Date, mtime: Date) => {
          NODE_FS.utimesSync(file, atime, mtime);
          rmdirSync(lockPath);
          mkdirSync(lockPath);
          theirs = identity(lockPath);
        }) as LockFileSystem['utimesSync'],
      };
      const lock = await lockStore(path, 1_000, undefined, fs);
      vi.advanceTimersByTime(STALE_MS / 2);
      expect(theirs).toBeDefined();
      expect(() => lock.confirm()).toThrow(
        expect.objectContaining({ code: 'store_locked', message: expect.stringContaining('the lock was taken over') }),
      );
      lock.release();
      expect(identity(lockPath)).toBe(theirs);
    });
  });
});
