import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodePlant } from '../../src/core/plant-json.js';
import type { NewPlant } from '../../src/core/schemas.js';
import { StoreFileIndex } from '../../src/store/store-file-index.js';
import { encodeStore, indexStoreFile, writeStoreFile, type LineChange } from '../../src/store/store-file.js';
import { tempDir } from '../helpers/temp.js';

const plant = fc.record(
  { id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), name: fc.string({ maxLength: 20 }), tag: fc.string({ maxLength: 5 }) },
  { requiredKeys: ['id', 'name'] },
);
/** Plants with distinct ids, in id order, as a fold gives them. */
const plants = fc.uniqueArray(plant, { selector: (p) => p.id, maxLength: 12 }).map((list) => list.sort((a, b) => (a.id < b.id ? -1 : 1)) as NewPlant[]);

function written(list: NewPlant[], base = StoreFileIndex.empty(), changes: LineChange[] = list.map((p) => ({ id: p.id, line: encodePlant(p) }))): { text: string; where: ReturnType<typeof writeStoreFile> } {
  const chunks: Buffer[] = [];
  const where = writeStoreFile((chunk) => chunks.push(Buffer.from(chunk)), base, changes, list.length);
  return { text: Buffer.concat(chunks).toString('utf8'), where };
}

describe('the store file as a fold writes it', () => {
  it('is the canonical layout, byte for byte, and says where each line is', () => {
    fc.assert(
      fc.property(plants, (list) => {
        const { text, where } = written(list);
        expect(text).toBe(encodeStore(list));
        const bytes = Buffer.from(text);
        list.forEach((p, i) => {
          expect(where.ids[i]).toBe(p.id);
          expect(bytes.toString('utf8', where.starts[i], (where.starts[i] as number) + (where.lengths[i] as number))).toBe(encodePlant(p));
        });
      }),
    );
  });

  it('folds changes into a store file, copying its runs of unchanged plants byte for byte', async () => {
    const dir = await tempDir();
    let n = 0;
    // Changes: new plants, new lines for plants of the file, and deletions of them (null).
    const change = fc.record({ pick: fc.nat(), plant, remove: fc.boolean(), renew: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(plants, fc.array(change, { maxLength: 12 }), fc.boolean(), async (before, picks, inMemory) => {
        const path = join(dir, `${(n += 1)}.json`);
        writeFileSync(path, written(before).text);
        const base = inMemory ? StoreFileIndex.inMemory(before.map((p) => ({ id: p.id, line: encodePlant(p) }))) : (indexStoreFile(path) ?? StoreFileIndex.empty());
        try {
          const changes = new Map<bigint, NewPlant | null>();
          for (const { pick, plant: fresh, remove, renew } of picks) {
            const old = before.length > 0 && renew ? before[pick % before.length] : undefined;
            const id = old?.id ?? fresh.id;
            changes.set(id, remove ? null : { ...(fresh as NewPlant), id });
          }
          const expected = new Map(before.map((p) => [p.id, p]));
          for (const [id, changed] of changes) {
            if (changed === null) expected.delete(id);
            else expected.set(id, changed);
          }
          const byId = <T,>(entries: [bigint, T][]) => entries.sort(([a], [b]) => (a < b ? -1 : 1));
          const after = byId([...expected]).map(([, p]) => p);
          const ordered = byId([...changes]).map(([id, changed]) => ({ id, line: changed === null ? null : encodePlant(changed) }));
          const { text, where } = written(after, base, ordered);
          expect(text).toBe(encodeStore(after));
          const bytes = Buffer.from(text);
          after.forEach((p, i) => {
            expect(where.ids[i]).toBe(p.id);
            expect(bytes.toString('utf8', where.starts[i], (where.starts[i] as number) + (where.lengths[i] as number))).toBe(encodePlant(p));
          });
        } finally {
          base.close();
        }
      }),
      { numRuns: 200 },
    );
  });

  it('is read back by its index exactly: every plant, in id order, by position', async () => {
    const dir = await tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(plants, async (list) => {
        const path = join(dir, `${(n += 1)}.json`);
        writeFileSync(path, written(list).text);
        const index = indexStoreFile(path);
        try {
          expect(index?.size).toBe(list.length);
          list.forEach((p, i) => {
            expect(index?.idAt(i)).toBe(p.id);
            expect(index?.lineAt(i)).toBe(encodePlant(p));
          });
        } finally {
          index?.close();
        }
      }),
      { numRuns: 50 },
    );
  });

  it('is indexed in id order when an older plants wrote it in another order', async () => {
    const path = join(await tempDir(), 'plants.json');
    writeFileSync(path, encodeStore([{ id: 3n, name: 'c' }, { id: -1n, name: 'a' }, { id: 2n, name: 'b' }]));
    const index = indexStoreFile(path);
    expect([0, 1, 2].map((i) => index?.lineAt(i))).toEqual(['{"id":-1,"name":"a"}', '{"id":2,"name":"b"}', '{"id":3,"name":"c"}']);
    index?.close();
    expect(readFileSync(path, 'utf8')).toBe(encodeStore([{ id: 3n, name: 'c' }, { id: -1n, name: 'a' }, { id: 2n, name: 'b' }]));
  });
});
