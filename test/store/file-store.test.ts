import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPlant } from '../../src/core/create.js';
import { FileStore } from '../../src/store/file-store.js';
import { decodeStore, encodeStore } from '../../src/store/store-file.js';
import { tempDir } from '../helpers/temp.js';

describe('the JSON file store', () => {
  it('is created on first use, with its directory, and holds ids digit for digit', async () => {
    const path = join(await tempDir(), 'deep', 'dir', 'plants.json');
    const store = new FileStore(path);
    await createPlant(store, { id: 9223372036854775807n, name: 'Max', tag: 'herb' });
    await createPlant(store, { id: -9223372036854775808n, name: 'Min' });
    expect(await readFile(path, 'utf8')).toBe(
      '{\n  "plantStore": 1,\n  "plants": [\n' +
        '    {"id":9223372036854775807,"name":"Max","tag":"herb"},\n' +
        '    {"id":-9223372036854775808,"name":"Min"}\n  ]\n}\n',
    );
    expect([...(await new FileStore(path).read()).keys()]).toEqual([9223372036854775807n, -9223372036854775808n]);
  });

  it('refuses a duplicate id and leaves the file as it was', async () => {
    const path = join(await tempDir(), 'plants.json');
    const store = new FileStore(path);
    await createPlant(store, { id: 1n, name: 'Fern' });
    const before = await readFile(path, 'utf8');
    await expect(createPlant(store, { id: 1n, name: 'Oak' })).rejects.toMatchObject({ code: 'duplicate_id', error: 1002 });
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('adds a batch with one write, refusing ids taken before or earlier in the batch', async () => {
    const path = join(await tempDir(), 'plants.json');
    const store = new FileStore(path);
    await store.addAll([{ id: 1n, name: 'a' }]);
    const outcomes = await store.addAll([
      { id: 2n, name: 'b' },
      { id: 1n, name: 'again' },
      { id: 2n, name: 'twice' },
      { id: 3n, name: 'c' },
    ]);
    expect(outcomes).toEqual(['added', 'duplicate', 'duplicate', 'added']);
    expect([...(await store.read()).values()].map((plant) => plant.name)).toEqual(['a', 'b', 'c']);
  });

  it('sees what another writer added since its own last write (a server sharing the file with --local)', async () => {
    const path = join(await tempDir(), 'plants.json');
    const server = new FileStore(path);
    const local = new FileStore(path);
    await server.addAll([{ id: 1n, name: 'from server' }]);
    await local.addAll([{ id: 2n, name: 'from local' }]);
    expect(await server.addAll([{ id: 2n, name: 'again' }, { id: 3n, name: 'new' }])).toEqual(['duplicate', 'added']);
    expect([...(await local.read()).values()].map((plant) => plant.name)).toEqual(['from server', 'from local', 'new']);
  });

  it('forgets plants whose write failed', async () => {
    const path = join(await tempDir(), 'plants.json');
    class FailingOnce extends FileStore {
      failNext = false;
      protected override async write(file: Buffer | string): Promise<void> {
        if (this.failNext) {
          this.failNext = false;
          throw new Error('disk full');
        }
        await super.write(file);
      }
    }
    const store = new FailingOnce(path);
    await store.addAll([{ id: 1n, name: 'kept' }]);
    store.failNext = true;
    await expect(store.addAll([{ id: 2n, name: 'lost' }])).rejects.toThrow('disk full');
    expect(await store.addAll([{ id: 2n, name: 'retried' }])).toEqual(['added']);
    expect((await store.read()).get(2n)?.name).toBe('retried');
  });

  it('leaves no lock or temp file behind', async () => {
    const dir = await tempDir();
    await createPlant(new FileStore(join(dir, 'plants.json')), { id: 1n, name: 'Fern' });
    expect(await readdir(dir)).toEqual(['plants.json']);
  });

  it('waits for a lock another process holds, says so after a second, and gives up with store_locked', async () => {
    const path = join(await tempDir(), 'plants.json');
    await mkdir(`${path}.lock`); // held, and fresh: another process's
    let told = 0;
    const started = Date.now();
    const store = new FileStore(path, { lockWaitMs: 1_300, onLockWait: () => (told += 1) });
    await expect(createPlant(store, { id: 1n, name: 'Fern' })).rejects.toMatchObject({ code: 'store_locked', message: expect.stringContaining(path) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_300);
    expect(told).toBe(1);
    expect(existsSync(path)).toBe(false);
  });

  it('takes over a lock left 10 s stale by a killed process', async () => {
    const path = join(await tempDir(), 'plants.json');
    await mkdir(`${path}.lock`);
    const longAgo = new Date(Date.now() - 11_000);
    await utimes(`${path}.lock`, longAgo, longAgo);
    await createPlant(new FileStore(path, { lockWaitMs: 1_000 }), { id: 1n, name: 'Fern' });
    expect([...(await new FileStore(path).read()).keys()]).toEqual([1n]);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it.each([
    ['not JSON', '{"plantStore": 1, "plants": [', /not valid JSON/],
    ['empty', '', /not valid JSON/],
    ['someone else’s JSON', '{"name": "my-app", "version": "1.0.0"}', /not a plants store file/],
    ['a JSON array', '[{"id": 1, "name": "Fern"}]', /not a plants store file/],
    ['a newer format', '{"plantStore": 2, "plants": []}', /unsupported format version 2/],
    ['an invalid plant', '{"plantStore": 1, "plants": [{"id": 1.5, "name": "x"}]}', /plants\[0\]: invalid plant: id must be an integer/],
    ['a repeated id', '{"plantStore": 1, "plants": [{"id": 1, "name": "x"}, {"id": 1, "name": "y"}]}', /plants\[1\]: id 1 appears twice/],
  ])('refuses a store file that is %s, and never overwrites it', async (_what, content, message) => {
    const path = join(await tempDir(), 'plants.json');
    await writeFile(path, content);
    const failure = await createPlant(new FileStore(path), { id: 2n, name: 'Oak' }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'store_corrupt', error: 2008 });
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).toContain(path);
    expect(await readFile(path, 'utf8')).toBe(content);
  });

  it('keeps the mode of an existing store file', async () => {
    const path = join(await tempDir(), 'plants.json');
    await writeFile(path, '{"plantStore": 1, "plants": []}', { mode: 0o640 });
    await createPlant(new FileStore(path), { id: 1n, name: 'Fern' });
    expect((await stat(path)).mode & 0o777).toBe(0o640);
  });

  it('reports a store it cannot write as store_io, naming the path', async () => {
    const dir = await tempDir();
    const blocker = join(dir, 'file');
    await writeFile(blocker, 'not a directory');
    const path = join(blocker, 'plants.json');
    await expect(createPlant(new FileStore(path), { id: 1n, name: 'Fern' })).rejects.toMatchObject({
      code: 'store_io',
      message: expect.stringContaining(path),
    });
  });
});

describe('the file store with a journal (plants serve)', () => {
  const tmpStore = async () => join(await tempDir(), 'plants.json');

  it('appends batches to the journal, reads store and journal together, and compacts into the store file', async () => {
    const path = await tmpStore();
    const server = new FileStore(path, { journal: true });
    await server.addAll([{ id: 1n, name: 'a' }]);
    await server.addAll([{ id: 2n, name: 'b' }, { id: 1n, name: 'dup' }]);
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(`${path}.journal`, 'utf8')).toBe('{"id":1,"name":"a"}\n{"id":2,"name":"b"}\n');
    expect([...(await new FileStore(path).read()).keys()]).toEqual([1n, 2n]);
    await server.compact();
    expect([...decodeStore(await readFile(path, 'utf8'), path).keys()]).toEqual([1n, 2n]);
    await expect(readFile(`${path}.journal`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('shares the store with a writer without journal: each sees the other, nothing is lost', async () => {
    const path = await tmpStore();
    const server = new FileStore(path, { journal: true });
    const local = new FileStore(path);
    await server.addAll([{ id: 1n, name: 'server' }]);
    expect(await local.addAll([{ id: 1n, name: 'x' }, { id: 2n, name: 'local' }])).toEqual(['duplicate', 'added']);
    // The local write folded the journal into the store file.
    expect([...decodeStore(await readFile(path, 'utf8'), path).keys()]).toEqual([1n, 2n]);
    expect(await server.addAll([{ id: 2n, name: 'x' }, { id: 3n, name: 'server again' }])).toEqual(['duplicate', 'added']);
    expect([...(await local.read()).keys()]).toEqual([1n, 2n, 3n]);
    await server.close();
  });

  it('drops a torn last line (a crash mid-append, never acknowledged) and appends after it', async () => {
    const path = await tmpStore();
    await writeFile(`${path}.journal`, '{"id":1,"name":"whole"}\n{"id":2,"na');
    const store = new FileStore(path, { journal: true });
    expect([...(await store.read()).keys()]).toEqual([1n]);
    await store.addAll([{ id: 3n, name: 'next' }]);
    expect(await readFile(`${path}.journal`, 'utf8')).toBe('{"id":1,"name":"whole"}\n{"id":3,"name":"next"}\n');
    await store.close();
  });

  it('shares one lock and one journal between a symlink to the store and the store itself', async () => {
    const dir = await tempDir();
    const path = join(dir, 'plants.json');
    await new FileStore(path).addAll([{ id: 1n, name: 'first' }]);
    await symlink(path, join(dir, 'link.json'));
    const throughLink = new FileStore(join(dir, 'link.json'), { journal: true });
    expect(await throughLink.addAll([{ id: 5n, name: 'through the link' }])).toEqual(['added']);
    expect(await new FileStore(path).addAll([{ id: 5n, name: 'direct' }])).toEqual(['duplicate']);
    await throughLink.compact();
    await throughLink.close();
    expect([...(await new FileStore(path).read()).values()]).toEqual([
      { id: 1n, name: 'first' },
      { id: 5n, name: 'through the link' },
    ]);
  });

  it('counts the journal in bytes on disk, so a line that is not valid UTF-8 does not shift the next append', async () => {
    const path = await tmpStore();
    // 0xff is not UTF-8: decoded, it becomes U+FFFD, three bytes where the file has one.
    const first = Buffer.concat([Buffer.from('{"id":1,"name":"a'), Buffer.from([0xff]), Buffer.from('"}\n')]);
    await writeFile(`${path}.journal`, first);
    const store = new FileStore(path, { journal: true });
    await store.addAll([{ id: 2n, name: 'b' }]);
    await store.close();
    expect(await readFile(`${path}.journal`)).toEqual(Buffer.concat([first, Buffer.from('{"id":2,"name":"b"}\n')]));
    expect([...(await new FileStore(path).read()).keys()]).toEqual([1n, 2n]);
  });

  it('skips journal lines the store file already holds (a crash between compaction and removing the journal)', async () => {
    const path = await tmpStore();
    await writeFile(path, encodeStore([{ id: 1n, name: 'a' }]));
    await writeFile(`${path}.journal`, '{"id":1,"name":"a"}\n{"id":2,"name":"b"}\n');
    expect([...(await new FileStore(path).read()).keys()]).toEqual([1n, 2n]);
  });

  it('folds a journal that repeats the store file, or beside a store laid out by hand, plant by plant', async () => {
    const path = await tmpStore();
    await writeFile(path, encodeStore([{ id: 1n, name: 'a' }]));
    await writeFile(`${path}.journal`, '{"id":1,"name":"a"}\n{"id":2,"name":"b"}\n');
    await new FileStore(path, { journal: true }).compact();
    expect(await readFile(path, 'utf8')).toBe(encodeStore([{ id: 1n, name: 'a' }, { id: 2n, name: 'b' }]));
    await writeFile(path, '{"plantStore":1,"plants":[{"name":"a","id":1}]}');
    await writeFile(`${path}.journal`, '{"id":3,"name":"c"}\n');
    await new FileStore(path, { journal: true }).compact();
    expect(await readFile(path, 'utf8')).toBe(encodeStore([{ id: 1n, name: 'a' }, { id: 3n, name: 'c' }]));
    await expect(readFile(`${path}.journal`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a journal with a whole line that is not a plant', async () => {
    const path = await tmpStore();
    await writeFile(`${path}.journal`, '{"id":1,"name":"a"}\n{"id":"2","name":"b"}\n');
    await expect(new FileStore(path, { journal: true }).addAll([{ id: 3n, name: 'c' }])).rejects.toMatchObject({
      code: 'store_corrupt',
      message: expect.stringContaining('line 2: invalid plant: id must be an integer'),
    });
  });

  it('keeps the lock for a write queued right behind, and lets it go at the next turn of the event loop', async () => {
    const path = await tmpStore();
    const server = new FileStore(path, { journal: true });
    await server.addAll([{ id: 1n, name: 'a' }]);
    expect(existsSync(`${path}.lock`)).toBe(true);
    await server.addAll([{ id: 2n, name: 'b' }]);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(`${path}.lock`)).toBe(false);
    // Another writer gets its turn, and the server sees what it wrote.
    await new FileStore(path).addAll([{ id: 3n, name: 'c' }]);
    expect(await server.addAll([{ id: 3n, name: 'again' }, { id: 4n, name: 'd' }])).toEqual(['duplicate', 'added']);
    await server.close();
  });

  it('runs concurrent calls on one instance one at a time', async () => {
    const path = await tmpStore();
    const store = new FileStore(path, { journal: true });
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.addAll([{ id: BigInt(i % 10), name: `p${i}` }])));
    expect(outcomes.flat().filter((outcome) => outcome === 'added')).toHaveLength(10);
    expect((await new FileStore(path).read()).size).toBe(10);
    await store.close();
  });

  it('compacts on its own once the journal is large', async () => {
    const path = await tmpStore();
    const store = new FileStore(path, { journal: true });
    for (let batch = 0; batch < 10; batch += 1) {
      await store.addAll(Array.from({ length: 1000 }, (_, i) => ({ id: BigInt(batch * 1000 + i), name: 'p' })));
    }
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readFile(`${path}.journal`, 'utf8')).split('\n').length - 1).toBe(10_000);
    await store.addAll(Array.from({ length: 1000 }, (_, i) => ({ id: BigInt(10_000 + i), name: 'p' })));
    // Ten batches fit in the journal; the eleventh would make it larger than both the minimum
    // and the store file, so everything is folded into the store file.
    expect(decodeStore(await readFile(path, 'utf8'), path).size).toBe(11_000);
    await expect(readFile(`${path}.journal`)).rejects.toMatchObject({ code: 'ENOENT' });
    await store.close();
  });
});

describe('reading a store file edited by hand', () => {
  it('reads any JSON layout of the format exactly, and writes it back in the canonical layout', async () => {
    const path = join(await tempDir(), 'plants.json');
    await writeFile(
      path,
      `{"plants": [
         { "name": "Caf\\u00e9", "id": 9223372036854775807 },
         {"id": 1.0e1, "tag": "x", "name": "Ten", "note": "dropped"}
       ], "plantStore": 1}`,
    );
    const store = new FileStore(path);
    expect([...(await store.read()).values()]).toEqual([
      { id: 9223372036854775807n, name: 'Café' },
      { id: 10n, name: 'Ten', tag: 'x' },
    ]);
    await store.addAll([{ id: 11n, name: 'Eleven' }]);
    expect(await readFile(path, 'utf8')).toBe(
      '{\n  "plantStore": 1,\n  "plants": [\n    {"id":9223372036854775807,"name":"Café"},\n    {"id":10,"name":"Ten","tag":"x"},\n    {"id":11,"name":"Eleven"}\n  ]\n}\n',
    );
  });

  it('reads a plant split over lines inside our layout, and writes it back on one line', async () => {
    const path = join(await tempDir(), 'plants.json');
    await writeFile(path, '{\n  "plantStore": 1,\n  "plants": [\n    {"id":1,\n    "name":"Fern"}\n  ]\n}\n');
    await new FileStore(path).addAll([{ id: 2n, name: 'Oak' }]);
    expect(await readFile(path, 'utf8')).toBe(encodeStore([{ id: 1n, name: 'Fern' }, { id: 2n, name: 'Oak' }]));
  });

  it('adds to an empty store laid out over lines by hand', async () => {
    const path = join(await tempDir(), 'plants.json');
    await writeFile(path, '{\n  "plantStore": 1,\n  "plants": [\n  ]\n}\n');
    await new FileStore(path).addAll([{ id: 1n, name: 'Fern' }]);
    const server = new FileStore(path, { journal: true });
    await server.addAll([{ id: 2n, name: 'Oak' }]);
    await server.compact();
    expect(await readFile(path, 'utf8')).toBe(encodeStore([{ id: 1n, name: 'Fern' }, { id: 2n, name: 'Oak' }]));
  });

  it.each([
    ['a name too long', `{"id":1,"name":"${'x'.repeat(1001)}"}`, /plants\[0\]: invalid plant: name must be at most 1,000 characters/],
    ['an id out of range', '{"id":9223372036854775808,"name":"x"}', /plants\[0\]: invalid plant: id must be between/],
    ['a repeated key', '{"id":1,"name":"x","name":"y"}', /plants\[0\] is not JSON|Duplicate key/],
  ])('refuses a canonical-looking line with %s', async (_what, line, message) => {
    const path = join(await tempDir(), 'plants.json');
    const content = `{\n  "plantStore": 1,\n  "plants": [\n    ${line}\n  ]\n}\n`;
    await writeFile(path, content);
    await expect(new FileStore(path).addAll([{ id: 2n, name: 'y' }])).rejects.toMatchObject({ code: 'store_corrupt', message: expect.stringMatching(message) });
    expect(await readFile(path, 'utf8')).toBe(content);
  });
});
