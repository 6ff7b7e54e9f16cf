import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalPlant, encodePlant } from '../../src/core/plant-json.js';
import type { NewPlant } from '../../src/core/schemas.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { allPlants } from '../helpers/stored-plants.js';
import { countingFs } from '../helpers/counting-fs.js';
import { tempDir } from '../helpers/temp.js';

// A store as the previous release left it (test/store/fixtures/previous-release: its README says
// how it was made) is read exactly: by its index where that vouches for the files, and else, its
// store file in our layout, checked by the first command, which leaves it an index.

const FIXTURE = join(import.meta.dirname, 'fixtures', 'previous-release');
const expected: NewPlant[] = readFileSync(join(FIXTURE, 'plants.ndjson'), 'utf8')
  .split('\n')
  .filter((line) => line !== '')
  .map((line) => canonicalPlant(line) as NewPlant);

/** The fixture's files, copied into a new directory. */
async function copied(): Promise<string> {
  const path = join(await tempDir(), 'plants.json');
  for (const suffix of ['', '.journal', '.index'])
    copyFileSync(join(FIXTURE, `plants.json${suffix}`), `${path}${suffix}`);
  return path;
}

/**
 * The copied index, its header given the copies' stamps (the store file's inode, size, mtime and
 * ctime; the journal's birth time and inode), so that it vouches for them: its entries, the bytes
 * after the header, are left as the previous release wrote them.
 */
function vouchingForCopies(path: string): void {
  const index = readFileSync(`${path}.index`);
  const headerEnd = index.indexOf(10, index.indexOf(10) + 1);
  const header = JSON.parse(index.toString('utf8', index.indexOf(10) + 1, headerEnd)) as Record<string, unknown>;
  const file = statSync(path, { bigint: true });
  const journal = statSync(`${path}.journal`, { bigint: true });
  header.store = `${file.ino}:${file.size}:${file.mtimeNs}:${file.ctimeNs}`;
  header.journal = String((journal.birthtimeNs << 64n) | journal.ino);
  const head = Buffer.from(`plants-index 1\n${JSON.stringify(header)}\n`);
  const entries = index.subarray(Math.ceil((headerEnd + 1) / 8) * 8);
  writeFileSync(
    `${path}.index`,
    Buffer.concat([head, Buffer.alloc(Math.ceil(head.length / 8) * 8 - head.length), entries]),
  );
}

describe('a store the previous release left', () => {
  it('is read exactly, by its index, and left as it is', async () => {
    const path = await copied();
    vouchingForCopies(path);
    const before = { file: statSync(path).ino, journal: readFileSync(`${path}.journal`) };
    const fs = countingFs();
    const store = await FileStore.open(path, { fs });
    // Found where needed, not read whole: a plant, a page.
    expect(await store.get(3_000n)).toEqual({ id: 3_000n, name: 'p1000', tag: 't' });
    expect((await store.list({ after: 3n, limit: 2 })).map((plant) => plant.id)).toEqual([4n, 7n]);
    expect(fs.bytesRead.get(path)).toBeLessThan(statSync(path).size / 2);
    // A plant of the store file, one the journal renamed, one it deleted, one written by hand, the ends of int64.
    expect(await store.get(12n)).toEqual({ id: 12n, name: 'p4', tag: 't' });
    expect(await store.get(7n)).toEqual({ id: 7n, name: 'Fougère 🌱' });
    expect(await store.get(3n)).toEqual({ id: 3n, name: 'renamed 0' });
    expect(await store.get(24n)).toBeUndefined();
    expect(await store.get(10_000n)).toEqual({ id: 10_000n, name: 'new 0' });
    expect(await store.get(4n)).toEqual({ id: 4n, name: 'by hand' });
    expect(await store.get(9223372036854775807n)).toEqual({ id: 9223372036854775807n, name: 'Max' });
    expect(await store.get(-9223372036854775808n)).toEqual({ id: -9223372036854775808n, name: 'Min', tag: 'édge' });
    expect([...(await allPlants(store)).values()]).toEqual(expected);
    await store.close();
    expect(statSync(path).ino).toBe(before.file);
    expect(readFileSync(`${path}.journal`)).toEqual(before.journal);
  });

  it('copied without its index vouching for the copies, is read exactly, and left as it is with an index', async () => {
    const path = await copied();
    const before = { file: readFileSync(path), ino: statSync(path).ino, journal: readFileSync(`${path}.journal`) };
    const store = await FileStore.open(path);
    expect([...(await allPlants(store)).values()]).toEqual(expected);
    await store.close();
    expect(statSync(path).ino).toBe(before.ino);
    expect(readFileSync(path).equals(before.file)).toBe(true);
    expect(readFileSync(`${path}.journal`).equals(before.journal)).toBe(true);
    // The index it left vouches for the files: the next command finds a plant where it is.
    const fs = countingFs();
    const again = await FileStore.open(path, { fs });
    expect(await again.get(3_000n)).toEqual({ id: 3_000n, name: 'p1000', tag: 't' });
    expect(fs.bytesRead.get(path)).toBeLessThan(statSync(path).size / 2);
    expect((await again.list({ limit: 2_000 })).map(encodePlant)).toEqual(expected.map(encodePlant));
    await again.close();
  });
});
