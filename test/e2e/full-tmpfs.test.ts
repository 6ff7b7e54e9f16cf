import { readdir, readFile, unlink } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileSync as atomicWriteFileSync } from 'atomically';
import writeFileAtomic from 'write-file-atomic';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { replaceFileSync } from '../../src/fs/durable-file.js';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { canMount, fillUntil, smallFileSystem } from '../helpers/small-fs.js';
import { checkpointedStore, storedPlants } from '../helpers/stored-plants.js';

// In-process writes on a real tmpfs that fills up: mounting one takes a child process (mount),
// hence here. The same faults injected through the fs seam: test/fs/durable-file.test.ts and
// test/store/short-writes.test.ts.

const OLD = 'the store as it was\n'.repeat(100);
const batch = (from: number, count: number): NewPlant[] =>
  Array.from({ length: count }, (_, i) => ({ id: BigInt(from + i), name: `plant ${from + i}` }));
const ids = (from: number, count: number) => batch(from, count).map((plant) => plant.id);

// Why durable-file.ts exists: on a real full file system, the two libraries it replaces rename a
// truncated file over the good one. If a release of theirs stops doing so, this test says so.
describe.skipIf(!canMount)("on a real full tmpfs, unlike write-file-atomic and atomically (conf's)", () => {
  it.each([
    ['write-file-atomic', (path: string, data: Buffer) => writeFileAtomic.sync(path, data, { fsync: true })],
    ['atomically', (path: string, data: Buffer) => atomicWriteFileSync(path, data)],
  ])('replaceFileSync refuses what %s truncates', (_library, libraryWrite) => {
    const dir = smallFileSystem(256 * 1024);
    const path = join(dir, 'plants.json');
    const big = Buffer.alloc(96 * 1024, 'x');
    writeFileSync(path, OLD);
    fillUntil(dir, 64 * 1024);
    expect(() => replaceFileSync(path, big)).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    let failed = false;
    try {
      libraryWrite(path, big);
    } catch {
      failed = true;
    }
    // The library neither failed nor wrote the whole file: it put a truncated one in its place.
    expect(failed).toBe(false);
    expect(statSync(path).size).toBeLessThan(big.length);
  });
});

describe.skipIf(!canMount)('the file store on a real tmpfs', () => {
  it('a write at the fold threshold with room for its line only is stored, and later ones try no fold', async () => {
    const dir = smallFileSystem(1024 * 1024);
    const path = join(dir, 'plants.json');
    await checkpointedStore(path, batch(0, 50));
    const folds = { tried: 0 };
    const fs: FileSystem = {
      ...NODE_FS,
      openSync: ((file: string, flags: string, mode?: number) => {
        // A fold's new store file; not the index a fold then writes.
        if (flags === 'wx' && !file.includes('.index.')) folds.tried += 1;
        return NODE_FS.openSync(file, flags, mode);
      }) as FileSystem['openSync'],
    };
    const store = await FileStore.open(path, { fs, checkpointAt: 100 });
    await store.addAll(batch(100, 100));
    const file = await readFile(path);
    // 100 short lines take part of one page: the next lines fit in it, a new store file does not.
    fillUntil(dir, 0);
    expect(await store.addAll(batch(200, 1))).toEqual(['added']);
    expect(folds.tried).toBe(1);
    for (let i = 201; i < 221; i += 1) expect(await store.addAll(batch(i, 1))).toEqual(['added']);
    expect(folds.tried).toBe(1);
    // The store keeps its lock until the event loop's next turn (for a write queued meanwhile).
    await new Promise((resolve) => setImmediate(resolve));
    expect((await readdir(dir)).sort()).toEqual(['filler', 'plants.json', 'plants.json.index', 'plants.json.journal']);
    expect(await readFile(path)).toEqual(file);
    // Room again: at the next threshold (200 lines past the failed fold's 100), the fold is done.
    await unlink(join(dir, 'filler'));
    await store.addAll(batch(221, 79));
    expect(folds.tried).toBe(1);
    await store.addAll(batch(300, 1));
    expect(folds.tried).toBe(2);
    // Folded: the journal holds only the line of the write that folded it.
    await new Promise((resolve) => setImmediate(resolve));
    expect((await readdir(dir)).sort()).toEqual(['plants.json', 'plants.json.index', 'plants.json.journal']);
    expect(await readFile(`${path}.journal`, 'utf8')).toBe('{"id":300,"name":"plant 300"}\n');
    await store.close();
    expect([...(await storedPlants(path)).keys()]).toEqual([...ids(0, 50), ...ids(100, 201)]);
  });
});

describe.skipIf(!canMount)('a store file no index vouches for, on a read-only file system', () => {
  it('is read whole and answered from memory, nothing written', async () => {
    const dir = smallFileSystem(1024 * 1024);
    const path = join(dir, 'plants.json');
    writeFileSync(
      path,
      '{\n  "plantStore": 1,\n  "plants": [ {"name": "Oak", "id": 2}, {"id": 1, "name": "Fern"} ]\n}\n',
    );
    writeFileSync(`${path}.journal`, '{"id":3,"name":"Ivy"}\n');
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    const files = () =>
      Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'latin1')]));
    const before = files();
    const read = async () => [...(await storedPlants(path)).values()];
    const plants = [
      { id: 1n, name: 'Fern' },
      { id: 2n, name: 'Oak' },
      { id: 3n, name: 'Ivy' },
    ];
    // Twice, each as a command reads it: the first leaves nothing behind for the second.
    expect([await read(), await read()]).toEqual([plants, plants]);
    expect(files()).toEqual(before);
  });
});
