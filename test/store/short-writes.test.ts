import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { FileStore } from '../../src/store/file-store.js';
import { faultyFs } from '../helpers/faulty-fs.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

// The file store on a file system that fills up, injected through its fs seam (the same on a real
// tmpfs, process by process: test/e2e/full-disk.test.ts).

const batch = (from: number, count: number): NewPlant[] => Array.from({ length: count }, (_, i) => ({ id: BigInt(from + i), name: `plant ${from + i}` }));
const ids = (from: number, count: number) => batch(from, count).map((plant) => plant.id);

describe('the file store on a full disk', () => {
  it('fails an append that does not fit as store_io, cuts the journal back, and keeps every plant it acknowledged', async () => {
    const path = join(await tempDir(), 'plants.json');
    const fs = faultyFs();
    const store = await FileStore.open(path, { fs });
    expect(await store.addAll(batch(0, 10))).toEqual(Array(10).fill('added'));
    const before = await readFile(`${path}.journal`);
    fs.room = 100;
    await expect(store.addAll(batch(10, 10))).rejects.toMatchObject({ code: 'store_io', effect: 'none', message: expect.stringContaining('ENOSPC') });
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

  it('fails a fold that does not fit as store_io, and leaves the store file and the journal as they were', async () => {
    const path = join(await tempDir(), 'plants.json');
    const fs = faultyFs();
    const store = await FileStore.open(path, { fs, foldAt: 0 });
    await store.addAll(batch(0, 100));
    await store.addAll(batch(100, 100));
    const file = await readFile(path);
    const journal = await readFile(`${path}.journal`);
    fs.room = file.length / 2;
    await expect(store.addAll(batch(200, 101))).rejects.toMatchObject({ code: 'store_io', effect: 'none', message: expect.stringContaining('ENOSPC') });
    expect(await readFile(path)).toEqual(file);
    expect(await readFile(`${path}.journal`)).toEqual(journal);
    fs.room = Infinity;
    expect(await store.addAll(batch(200, 101))).toEqual(Array(101).fill('added'));
    await store.close();
    expect((await storedPlants(path)).size).toBe(301);
  });

  it('writes whole lines and whole files when every write is cut short without an error', async () => {
    const path = join(await tempDir(), 'plants.json');
    const store = await FileStore.open(path, { fs: faultyFs(Infinity, 3), foldAt: 0 });
    await store.addAll(batch(0, 50));
    await store.addAll(batch(50, 50));
    await store.deleteAll([7n]);
    await store.addAll(batch(100, 60));
    await store.close();
    expect([...(await storedPlants(path)).keys()]).toEqual(ids(0, 160).filter((id) => id !== 7n));
  });
});
