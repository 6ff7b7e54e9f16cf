import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { FileStore } from '../../src/store/file-store.js';
import { faultyFs } from '../helpers/faulty-fs.js';
import { tempDir } from '../helpers/temp.js';

// The file store on a file system that fills up, injected through its fs seam (the same on a real
// tmpfs, process by process: test/e2e/full-disk.test.ts).

const batch = (from: number, count: number): NewPlant[] => Array.from({ length: count }, (_, i) => ({ id: BigInt(from + i), name: `plant ${from + i}` }));

describe('the file store on a full disk', () => {
  it('fails an append that does not fit as store_io, cuts the journal back, and keeps every plant it acknowledged', async () => {
    const path = join(await tempDir(), 'plants.json');
    const fs = faultyFs();
    const store = new FileStore(path, { journal: true, fs });
    expect(await store.addAll(batch(0, 10))).toEqual(Array(10).fill('added'));
    const before = await readFile(`${path}.journal`);
    fs.room = 100;
    await expect(store.addAll(batch(10, 10))).rejects.toMatchObject({ code: 'store_io', mayHaveTakenEffect: false, message: expect.stringContaining('ENOSPC') });
    expect(await readFile(`${path}.journal`)).toEqual(before);
    // Room again: the plants refused before are taken now, as if never sent.
    fs.room = Infinity;
    expect(await store.addAll(batch(10, 10))).toEqual(Array(10).fill('added'));
    await store.close();
    expect([...(await new FileStore(path).read()).keys()]).toEqual(batch(0, 20).map((plant) => plant.id));
  });

  it('fails a rewrite that does not fit as store_io and leaves the store file as it was', async () => {
    const path = join(await tempDir(), 'plants.json');
    const fs = faultyFs();
    const store = new FileStore(path, { fs });
    await store.addAll(batch(0, 100));
    const before = await readFile(path);
    fs.room = before.length / 2;
    await expect(store.addAll(batch(100, 1))).rejects.toMatchObject({ code: 'store_io', message: expect.stringContaining('ENOSPC') });
    expect(await readFile(path)).toEqual(before);
    fs.room = Infinity;
    expect(await store.addAll(batch(100, 1))).toEqual(['added']);
    expect((await new FileStore(path).read()).size).toBe(101);
  });

  it('writes whole lines and whole files when every write is cut short without an error', async () => {
    const path = join(await tempDir(), 'plants.json');
    const store = new FileStore(path, { journal: true, fs: faultyFs(Infinity, 3) });
    await store.addAll(batch(0, 50));
    await store.addAll(batch(50, 50));
    await store.compact();
    await store.close();
    expect([...(await new FileStore(path).read()).keys()]).toEqual(batch(0, 100).map((plant) => plant.id));
  });
});
