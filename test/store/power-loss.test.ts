import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { directorySyncsFs } from '../helpers/faulty-fs.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

// What a power cut (not only a kill) could take away: a name is durable once its directory is
// fsynced. The fsyncs are seen through the fs seam; a failed one stands for a writer that died
// before it.

const plants = (from: number, count: number): NewPlant[] =>
  Array.from({ length: count }, (_, i) => ({ id: BigInt(from + i), name: `plant ${from + i}` }));

describe('the journal, made by another writer', () => {
  it("is made durable by the next opener's first append where its maker's directory sync failed", async () => {
    const path = join(await tempDir(), 'plants.json');
    const fs = directorySyncsFs();
    const maker = await FileStore.open(path, { fs });
    fs.failing = 1;
    await expect(maker.addAll(plants(1, 1))).rejects.toMatchObject({ code: 'store_io', effect: 'none' });
    await maker.close();
    // Its journal is there, empty: the next writer finds it, and must not trust its name.
    expect(statSync(`${path}.journal`).size).toBe(0);
    fs.synced = [];
    const next = await FileStore.open(path, { fs });
    expect(await next.addAll(plants(2, 1))).toEqual(['added']);
    expect(fs.synced).toEqual([dirname(path)]);
    // Once an opening: the next append has nothing more to make durable.
    expect(await next.addAll(plants(3, 1))).toEqual(['added']);
    expect(fs.synced).toEqual([dirname(path)]);
    await next.close();
    expect([...(await storedPlants(path)).keys()]).toEqual([2n, 3n]);
  });

  it('is made durable by the first append of each opener where its maker died before syncing it', async () => {
    const path = join(await tempDir(), 'plants.json');
    // A writer that appended a line and died before its directory sync.
    writeFileSync(`${path}.journal`, '{"id":1,"name":"Fern"}\n');
    for (const id of [2, 3]) {
      const fs = directorySyncsFs();
      const store = await FileStore.open(path, { fs });
      expect(await store.addAll(plants(id, 1))).toEqual(['added']);
      await store.close();
      expect(fs.synced).toEqual([dirname(path)]);
    }
  });
});

describe('a store in a directory that is not there yet', () => {
  it('syncs the parent of each directory it makes, then the directory of its journal', async () => {
    const root = await tempDir();
    const path = join(root, 'a', 'b', 'plants.json');
    const fs = directorySyncsFs();
    const store = await FileStore.open(path, { fs });
    expect(await store.addAll(plants(1, 1))).toEqual(['added']);
    await store.close();
    expect(fs.synced).toEqual([root, join(root, 'a'), join(root, 'a', 'b')]);
    expect(existsSync(`${path}.journal`)).toBe(true);
  });
});

describe('a temporary file a crash left', () => {
  it("is removed by the next fold, under the lock: the store's own, regular files only", async () => {
    const dir = await tempDir();
    const path = join(dir, 'plants.json');
    const stale = ['plants.json.abcd1234.tmp', 'plants.json.index.0k3j4h5g.tmp'];
    const others = [
      'plants.json.bak.tmp',
      'plants.json.ABCD1234.tmp',
      'plants.json.abcd12345.tmp',
      'plants.json.abcd1234.tmp.old',
      'plants.jsonx.abcd1234.tmp',
      // Another store's: one at plants.json.copy, one at other.json.
      'plants.json.copy.abcd1234.tmp',
      'other.json.abcd1234.tmp',
    ];
    for (const name of [...stale, ...others]) writeFileSync(join(dir, name), 'left by a crash\n');
    // Named as ours, but not a regular file: a directory, and a link to a file elsewhere.
    mkdirSync(join(dir, 'plants.json.dir00000.tmp'));
    const elsewhere = join(await tempDir(), 'kept');
    writeFileSync(elsewhere, 'kept\n');
    symlinkSync(elsewhere, join(dir, 'plants.json.link0000.tmp'));
    const notFiles = ['plants.json.dir00000.tmp', 'plants.json.link0000.tmp'];

    const store = await FileStore.open(path, { checkpointAt: 10 });
    // Reads and writes that do not fold do not look: reading a directory costs what it holds.
    expect(await store.addAll(plants(1, 5))).toEqual(Array(5).fill('added'));
    await store.get(1n);
    expect(readdirSync(dir).sort()).toEqual(['plants.json.journal', ...stale, ...others, ...notFiles].sort());
    // The write that would make the journal 11 lines folds it first, then appends to a new one.
    expect(await store.addAll(plants(6, 6))).toEqual(Array(6).fill('added'));
    await store.close();
    expect(readFileSync(`${path}.journal`, 'utf8').split('\n')).toHaveLength(7);
    expect(readdirSync(dir).sort()).toEqual(
      ['plants.json', 'plants.json.index', 'plants.json.journal', ...others, ...notFiles].sort(),
    );
    expect(readFileSync(elsewhere, 'utf8')).toBe('kept\n');
    expect((await storedPlants(path)).size).toBe(11);
  });
});
