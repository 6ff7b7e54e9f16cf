import { copyFileSync, existsSync, readFileSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { appendFile, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { countingFs } from '../helpers/counting-fs.js';
import { allPlants, storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

const many = (from: number, count: number, name = 'p'): NewPlant[] =>
  Array.from({ length: count }, (_, i) => ({ id: BigInt(from + i), name: `${name}${from + i}` }));

/** A store as an import leaves it: a store file of `folded` plants, a journal of `journaled` more, and their index. */
async function importedStore(folded: number, journaled: number): Promise<string> {
  const path = join(await tempDir(), 'plants.json');
  writeFileSync(path, encodeDatabase(many(0, folded)));
  const store = await FileStore.open(path, { checkpointAt: 10_000_000 });
  for (let from = folded; from < folded + journaled; from += 10_000)
    await store.addAll(many(from, Math.min(10_000, folded + journaled - from)));
  await store.close();
  return path;
}

describe('the index of a store', () => {
  it('lets a command find a plant, add one and read a page in a few KiB, whatever the size of the store', async () => {
    const reads: Record<string, number> = {};
    for (const [name, folded, journaled] of [
      ['small', 2_000, 2_000],
      ['large', 200_000, 100_000],
    ] as const) {
      const path = await importedStore(folded, journaled);
      expect(existsSync(`${path}.index`)).toBe(true);
      const fs = countingFs();
      const store = await FileStore.open(path, { fs });
      expect(await store.get(1_500n)).toEqual({ id: 1_500n, name: 'p1500' });
      expect(await store.get(BigInt(folded + 500))).toEqual({ id: BigInt(folded + 500), name: `p${folded + 500}` });
      expect(await store.get(-1n)).toBeUndefined();
      expect(
        await store.addAll([
          { id: -5n, name: 'new' },
          { id: 7n, name: 'taken' },
        ]),
      ).toEqual(['added', 'duplicate']);
      expect((await store.list({ after: 990n, limit: 100 })).map((plant) => plant.id)).toEqual(
        many(991, 100).map((plant) => plant.id),
      );
      await store.close();
      reads[name] = fs.total();
    }
    // Bounded: the same order of bytes on a store 75 times the size, and far less than the store.
    expect(reads.large).toBeLessThan(300 * 1024);
    expect(reads.large).toBeLessThan((reads.small as number) * 3);
  });

  it(
    'of a store that is a journal alone, as an import into a new store leaves it, serves readers in a few KiB, ' +
      'and is left as it is',
    async () => {
      const path = join(await tempDir(), 'plants.json');
      const store = await FileStore.open(path, { checkpointAt: 10_000_000 });
      for (let from = 0; from < 20_000; from += 5_000) await store.addAll(many(from, 5_000));
      await store.close();
      expect(existsSync(path)).toBe(false);
      expect(existsSync(`${path}.index`)).toBe(true);
      const index = statSync(`${path}.index`, { bigint: true });
      for (let run = 0; run < 2; run += 1) {
        const fs = countingFs();
        const reader = await FileStore.open(path, { fs });
        expect(await reader.get(12_345n)).toEqual({ id: 12_345n, name: 'p12345' });
        expect((await reader.list({ after: 100n, limit: 3 })).map((plant) => plant.id)).toEqual([101n, 102n, 103n]);
        await reader.close();
        // Not the journal read whole (a block of lines around each plant asked for), and no index
        // written again by each reader.
        expect(fs.total()).toBeLessThan(Math.min(128 * 1024, statSync(`${path}.journal`).size / 4));
        expect(statSync(`${path}.index`, { bigint: true })).toMatchObject({ ino: index.ino, mtimeNs: index.mtimeNs });
      }
    },
  );

  it('of a journal removed by hand does not vouch for the next one, even where its inode is reused', async () => {
    const path = join(await tempDir(), 'plants.json');
    const journal = `${path}.journal`;
    // Every journal has the same inode number here, as a file system may give a new file the number of one just
    // removed.
    const fds = new Set<number>();
    const sameIno = <S extends { ino: bigint | number }>(stats: S): S =>
      Object.assign(stats, { ino: typeof stats.ino === 'bigint' ? 4242n : 4242 });
    const fs: FileSystem = {
      ...NODE_FS,
      openSync: ((file: string, flags: string, mode?: number) => {
        const fd = NODE_FS.openSync(file, flags, mode);
        if (file === journal) fds.add(fd);
        else fds.delete(fd);
        return fd;
      }) as FileSystem['openSync'],
      statSync: ((file: string, options?: object) => {
        const stats = (NODE_FS.statSync as (...args: unknown[]) => { ino: bigint } | undefined)(file, options);
        return file === journal && stats !== undefined ? sameIno(stats) : stats;
      }) as FileSystem['statSync'],
      fstatSync: ((fd: number, options?: object) => {
        const stats = (NODE_FS.fstatSync as (...args: unknown[]) => { ino: bigint })(fd, options);
        return fds.has(fd) ? sameIno(stats) : stats;
      }) as FileSystem['fstatSync'],
    };
    const first = await FileStore.open(path, { fs, checkpointAt: 10_000_000 });
    await first.addAll(many(0, 2_000, 'old'));
    await first.close();
    expect(existsSync(`${path}.index`)).toBe(true);
    // The journal removed, the index left, and a longer journal written in its place.
    unlinkSync(journal);
    writeFileSync(
      journal,
      many(0, 3_000, 'renamed')
        .map((plant) => `{"id":${plant.id},"name":"${plant.name}"}\n`)
        .join(''),
    );
    const reader = await FileStore.open(path, { fs });
    expect(await reader.get(1_000n)).toEqual({ id: 1_000n, name: 'renamed1000' });
    expect(await reader.get(2_500n)).toEqual({ id: 2_500n, name: 'renamed2500' });
    await reader.close();
  });

  it('never answers with another plant where a journal was rewritten in place under its index', async () => {
    const path = join(await tempDir(), 'plants.json');
    // Ids of four digits, lines of one length: a line moved by one is another plant's whole line.
    const ids = Array.from({ length: 2_000 }, (_, i) => 1_000 + i);
    const line = (id: number) => `{"id":${id},"name":"p${id}"}\n`;
    const writer = await FileStore.open(path, { checkpointAt: 10_000_000 });
    await writer.addAll(ids.map((id) => ({ id: BigInt(id), name: `p${id}` })));
    await writer.close();
    expect(existsSync(`${path}.index`)).toBe(true);
    // Rewritten in place, as an editor may (the same file, the same size): every line one further on.
    writeFileSync(`${path}.journal`, [line(9999), ...ids.slice(0, -1).map(line)].join(''));
    const reader = await FileStore.open(path);
    await expect(reader.get(2_000n)).rejects.toMatchObject({
      code: 'store_corrupt',
      message: expect.stringContaining('the line found for id 2000 is the plant 1999'),
    });
    await reader.close();
  });

  it('is read once, whole, by a process searching it many times (an import over a store), not per search', async () => {
    const path = join(await tempDir(), 'plants.json');
    const writer = await FileStore.open(path, { checkpointAt: 10_000_000 });
    for (let from = 0; from < 20_000; from += 5_000) await writer.addAll(many(from, 5_000));
    await writer.close();
    const fs = countingFs();
    const store = await FileStore.open(path, { fs, checkpointAt: 10_000_000 });
    // A batch that replaces every plant: each put looks its plant up.
    expect(new Set(await store.putAll(many(0, 20_000, 'q').map((plant) => ({ plant }))))).toEqual(new Set(['updated']));
    await store.close();
    // Its size once, and the blocks of the first searches: not the index again for every put.
    expect(fs.bytesRead.get(`${path}.index`)).toBeLessThan(2 * statSync(`${path}.index`).size);
  });

  it('is not trusted once the store file changed under it: a hand edit is read, whole, and kept', async () => {
    const path = await importedStore(2_000, 0);
    const index = readFileSync(`${path}.index`);
    // Edited by hand, in place, to the same size: a plant renamed.
    const edited = readFileSync(path, 'utf8').replace('{"id":1000,"name":"p1000"}', '{"id":1000,"name":"x1000"}');
    writeFileSync(path, edited);
    expect(readFileSync(`${path}.index`)).toEqual(index);
    expect((await storedPlants(path)).get(1000n)).toEqual({ id: 1000n, name: 'x1000' });
    // Its mtime set back, as an editor that keeps it does: the change time still tells.
    const before = statSync(path);
    writeFileSync(path, edited.replace('x1000', 'y1000'));
    await utimes(path, before.atime, before.mtime);
    expect((await storedPlants(path)).get(1000n)).toEqual({ id: 1000n, name: 'y1000' });
  });

  it('of a store copied elsewhere is read once, a block at a time, by a reader too, which leaves one', async () => {
    const path = await importedStore(5_000, 2_000);
    const dir = await tempDir();
    const copy = join(dir, 'plants.json');
    for (const suffix of ['', '.journal', '.index']) copyFileSync(`${path}${suffix}`, `${copy}${suffix}`);
    const { ino } = statSync(copy);
    const first = countingFs();
    const reader = await FileStore.open(copy, { fs: first });
    expect(await reader.get(4_999n)).toEqual({ id: 4_999n, name: 'p4999' });
    await reader.close();
    // Checked once in our layout: its size, and a few KiB to find the plant asked for.
    expect(first.bytesRead.get(copy)).toBeGreaterThanOrEqual(statSync(copy).size);
    expect(first.bytesRead.get(copy)).toBeLessThan(statSync(copy).size + 16 * 1024);
    const second = countingFs();
    const again = await FileStore.open(copy, { fs: second });
    expect(await again.get(4_999n)).toEqual({ id: 4_999n, name: 'p4999' });
    await again.close();
    expect(second.total()).toBeLessThan(64 * 1024);
    // Left as it was, the journal beside it, which the index vouches for too.
    expect((await readdir(dir)).sort()).toEqual(['plants.json', 'plants.json.index', 'plants.json.journal']);
    expect(statSync(copy).ino).toBe(ino);
    expect((await storedPlants(copy)).size).toBe(7_000);
  });

  it('sees what another process appended after it, and what a journal edited by hand says, in any form', async () => {
    const path = await importedStore(2_000, 3_000);
    await appendFile(`${path}.journal`, '{"name":"by hand","id":1}\n{"delete":2}\n{"id":3,"name":"again"}\n');
    const store = await FileStore.open(path);
    expect(await store.get(1n)).toEqual({ id: 1n, name: 'by hand' });
    expect(await store.get(2n)).toBeUndefined();
    expect((await store.list({ limit: 3 })).map((plant) => plant.name)).toEqual(['p0', 'by hand', 'again']);
    await store.close();
    // Folded: the line in another form is written in ours.
    const folding = await FileStore.open(path, { checkpointAt: 0 });
    await folding.addAll([{ id: -1n, name: 'first' }]);
    await folding.close();
    expect(readFileSync(path, 'utf8')).toContain('\n    {"id":1,"name":"by hand"},\n    {"id":3,"name":"again"},\n');
    expect([...(await storedPlants(path)).keys()].slice(0, 4)).toEqual([-1n, 0n, 1n, 3n]);
  });

  it('of a journal edited by hand: a page costs the reads of one whose lines are all in our form', async () => {
    const withLine = async (form: string): Promise<string> => {
      const path = await importedStore(2_000, 0);
      await appendFile(`${path}.journal`, `${form}\n`);
      // Past 1,000 lines beyond any index: the reader that closes the store leaves one.
      const store = await FileStore.open(path, { checkpointAt: 10_000_000 });
      await store.addAll(many(5_000, 1_001));
      await store.close();
      return path;
    };
    const ours = await withLine('{"id":1500,"name":"by hand"}');
    const byHand = await withLine('{ "name": "by hand", "id": 1500 }');
    const bytesOfAPage = async (path: string): Promise<number> => {
      const fs = countingFs();
      const reader = await FileStore.open(path, { fs });
      const page = await reader.list({ after: 1_400n, limit: 200 });
      expect(page.find((plant) => plant.id === 1_500n)).toEqual({ id: 1_500n, name: 'by hand' });
      await reader.close();
      return fs.bytesRead.get(path) ?? 0;
    };
    expect(await bytesOfAPage(byHand)).toBe(await bytesOfAPage(ours));
  });

  it.each([
    ['cut short', (index: string) => truncateSync(index, statSync(index).size - 8)],
    ['not an index', (index: string) => writeFileSync(index, 'plants-index 1\n{"store":"x"\n')],
    ['someone else’s file', (index: string) => writeFileSync(index, 'hello\n')],
  ])('that is %s is read as none: the store is read whole, right', async (_what, spoil) => {
    const path = await importedStore(3_000, 2_000);
    const expected = await storedPlants(path);
    spoil(`${path}.index`);
    const store = await FileStore.open(path);
    expect(await allPlants(store)).toEqual(expected);
    await store.close();
  });
});
