import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { faultyFs } from '../helpers/faulty-fs.js';
import { allPlants, checkpointedStore, storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

// The file store on a file system that fills up, injected through its fs seam (the same on a real
// tmpfs: test/e2e/full-tmpfs.test.ts, and process by process: test/e2e/full-disk.test.ts).

const batch = (from: number, count: number): NewPlant[] =>
  Array.from({ length: count }, (_, i) => ({ id: BigInt(from + i), name: `plant ${from + i}` }));
const ids = (from: number, count: number) => batch(from, count).map((plant) => plant.id);

describe('the file store on a full disk', () => {
  it('fails an append that does not fit as store_io, cuts the journal back, keeps all acknowledged', async () => {
    const path = join(await tempDir(), 'plants.json');
    const fs = faultyFs();
    const store = await FileStore.open(path, { fs });
    expect(await store.addAll(batch(0, 10))).toEqual(Array(10).fill('added'));
    const before = await readFile(`${path}.journal`);
    fs.room = 100;
    await expect(store.addAll(batch(10, 10))).rejects.toMatchObject({
      code: 'store_io',
      effect: 'none',
      message: expect.stringContaining('ENOSPC'),
    });
    expect(await readFile(`${path}.journal`)).toEqual(before);
    // Said in words, with what to do: the store is as it was.
    await expect(store.addAll(batch(10, 10))).rejects.toMatchObject({
      message: `could not append to the store ${path}.journal: no space left on device (ENOSPC)`,
      hint: 'free some space on its file system and try again: the store is as it was',
    });
    // Room again: the plants refused before are taken now, as if never sent.
    fs.room = Infinity;
    expect(await store.addAll(batch(10, 10))).toEqual(Array(10).fill('added'));
    await store.close();
    expect([...(await storedPlants(path)).keys()]).toEqual(ids(0, 20));
  });

  it('fails a probe as store_io where a block does not fit, leaving no file; takes it once there is room', async () => {
    const dir = await tempDir();
    const path = join(dir, 'plants.json');
    const fs = faultyFs();
    const store = await FileStore.open(path, { fs });
    await store.addAll(batch(0, 10));
    const files = await readdir(dir);
    fs.room = 100;
    await expect(store.probe()).rejects.toMatchObject({
      code: 'store_io',
      message: `could not write beside the store ${path}: no space left on device (ENOSPC)`,
    });
    expect(await readdir(dir)).toEqual(files);
    fs.room = Infinity;
    await store.probe();
    expect(await readdir(dir)).toEqual(files);
    await store.close();
    expect([...(await storedPlants(path)).keys()]).toEqual(ids(0, 10));
  });

  it('fails a fold that does not fit as store_io, and leaves the store file and the journal as they were', async () => {
    const path = join(await tempDir(), 'plants.json');
    const fs = faultyFs();
    const store = await FileStore.open(path, { fs, checkpointAt: 0 });
    await store.addAll(batch(0, 100));
    await store.addAll(batch(100, 100));
    const file = await readFile(path);
    const journal = await readFile(`${path}.journal`);
    fs.room = file.length / 2;
    await expect(store.addAll(batch(200, 101))).rejects.toMatchObject({
      code: 'store_io',
      effect: 'none',
      message: expect.stringContaining('ENOSPC'),
    });
    expect(await readFile(path)).toEqual(file);
    expect(await readFile(`${path}.journal`)).toEqual(journal);
    fs.room = Infinity;
    expect(await store.addAll(batch(200, 101))).toEqual(Array(101).fill('added'));
    await store.close();
    expect((await storedPlants(path)).size).toBe(301);
  });

  it('writes whole lines and whole files when every write is cut short without an error', async () => {
    const path = join(await tempDir(), 'plants.json');
    const store = await FileStore.open(path, { fs: faultyFs(Infinity, 3), checkpointAt: 0 });
    await store.addAll(batch(0, 50));
    await store.addAll(batch(50, 50));
    await store.deleteAll([7n]);
    await store.addAll(batch(100, 60));
    await store.close();
    expect([...(await storedPlants(path)).keys()]).toEqual(ids(0, 160).filter((id) => id !== 7n));
  });

  it(
    'a fold that fails before its rename lets the write append, and is not tried again for another threshold of ' +
      'lines',
    async () => {
      const path = join(await tempDir(), 'plants.json');
      await checkpointedStore(path, batch(0, 5));
      // The fold's temporary file finds the disk full; the journal, where a line still fits, does not.
      const folds = { tried: 0 };
      const fs: FileSystem = {
        ...NODE_FS,
        openSync: ((file: string, flags: string, mode?: number) => {
          if (flags === 'wx') {
            folds.tried += 1;
            throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' });
          }
          return NODE_FS.openSync(file, flags, mode);
        }) as FileSystem['openSync'],
      };
      const store = await FileStore.open(path, { fs, checkpointAt: 10 });
      const file = await readFile(path);
      expect(await store.addAll(batch(100, 10))).toEqual(Array(10).fill('added'));
      expect(folds.tried).toBe(0);
      // The 11th journal line is past the threshold (10): the fold is tried, fails, and the plant is appended.
      expect(await store.addAll(batch(110, 1))).toEqual(['added']);
      expect(folds.tried).toBe(1);
      // Nine more writes bring the journal to 20 lines, another threshold's worth: no fold tried meanwhile.
      for (let i = 111; i < 120; i += 1) expect(await store.addAll(batch(i, 1))).toEqual(['added']);
      expect(folds.tried).toBe(1);
      expect(await store.addAll(batch(120, 1))).toEqual(['added']);
      expect(folds.tried).toBe(2);
      await store.close();
      expect(await readFile(path)).toEqual(file);
      expect((await readFile(`${path}.journal`, 'utf8')).split('\n').length - 1).toBe(21);
      expect([...(await storedPlants(path)).keys()]).toEqual([...ids(0, 5), ...ids(100, 21)]);
    },
  );
});

describe('a fold that fails after its rename', () => {
  it.each([
    [
      'the directory cannot be fsynced',
      'fsync',
      'could not fsync the directory of the store',
      'input/output error (EIO)',
    ],
    [
      'the new store file cannot be reopened',
      'reopen',
      'could not reopen after writing the store',
      'too many open files (EMFILE)',
    ],
  ] as const)(
    'fails the write with effect none when %s, keeps the journal, and reads every plant acknowledged, from ' +
      'either store file',
    async (_what, fault, action, reason) => {
      const dir = await tempDir();
      await checkpointedStore(join(dir, 'plants.json'), batch(0, 5));
      const old = await readFile(join(dir, 'plants.json'));
      // Fails once, right after the fold's rename: the fsync of the directory, or the reopening.
      let renamed = false;
      let failed = false;
      const failOnce = (code: string) => {
        failed = true;
        return Object.assign(new Error(`${code}: injected`), { code });
      };
      const fs: FileSystem = {
        ...NODE_FS,
        renameSync: ((from: string, to: string) => {
          NODE_FS.renameSync(from, to);
          renamed = true;
        }) as FileSystem['renameSync'],
        openSync: ((file: string, flags: string, mode?: number) => {
          if (fault === 'reopen' && renamed && !failed && flags === 'r' && file.endsWith('plants.json'))
            throw failOnce('EMFILE');
          return NODE_FS.openSync(file, flags, mode);
        }) as FileSystem['openSync'],
        fsyncSync: ((fd: number) => {
          if (fault === 'fsync' && renamed && !failed && NODE_FS.fstatSync(fd).isDirectory()) throw failOnce('EIO');
          NODE_FS.fsyncSync(fd);
        }) as FileSystem['fsyncSync'],
      };
      const store = await FileStore.open(join(dir, 'plants.json'), { fs, checkpointAt: 10 });
      const { path } = store;
      expect(await store.addAll(batch(100, 10))).toEqual(Array(10).fill('added'));
      const journal = await readFile(`${path}.journal`);
      // The 11th journal line is past the threshold: the write folds first, and the fold fails after its rename.
      const failure = await store.addAll(batch(110, 1)).catch((error: unknown) => error);
      expect(renamed && failed).toBe(true);
      expect(failure).toMatchObject({ code: 'store_io', effect: 'none', message: `${action} ${path}: ${reason}` });
      // Renamed: the new file holds the plants acknowledged, and only those; the journal is kept.
      expect(await readFile(path, 'utf8')).toBe(encodeDatabase([...batch(0, 5), ...batch(100, 10)]));
      expect(await readFile(`${path}.journal`)).toEqual(journal);
      const acknowledged = [...ids(0, 5), ...ids(100, 10)];
      expect([...(await allPlants(store)).keys()]).toEqual(acknowledged);
      expect([...(await storedPlants(path)).keys()]).toEqual(acknowledged);
      // A crash that brings the old store file back: with the journal, it is whole.
      const crashed = join(await tempDir(), 'plants.json');
      await writeFile(crashed, old);
      await writeFile(`${crashed}.journal`, journal);
      expect([...(await storedPlants(crashed)).keys()]).toEqual(acknowledged);
      // Sent again, the plant is taken as new.
      expect(await store.addAll(batch(110, 1))).toEqual(['added']);
      await store.close();
      expect([...(await storedPlants(path)).keys()]).toEqual([...acknowledged, 110n]);
    },
  );
});
