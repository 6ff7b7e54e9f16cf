import { existsSync } from 'node:fs';
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockStore } from '../../src/store/store-lock.js';
import { tempDir } from '../helpers/temp.js';

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
});
