import fc from 'fast-check';
import { openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodePlant } from '../../src/core/plant-json.js';
import type { NewPlant } from '../../src/core/schemas.js';
import { NODE_FS } from '../../src/fs/file-system.js';
import type { Snapshot } from '../../src/store/file/snapshot.js';
import { StoreFiles } from '../../src/store/file/store-files.js';
import { encodeDatabase, INDENT, DatabaseWriter } from '../../src/store/file/database-file.js';
import { readDatabaseWhole } from '../../src/store/file/normalise.js';
import { DatabaseReader, fileBytes } from '../../src/store/file/database-reader.js';
import { DatabaseLines } from '../../src/store/file/database-lines.js';
import { tempDir } from '../helpers/temp.js';

const plant = fc.record(
  {
    id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
    name: fc.string({ maxLength: 20 }),
    tag: fc.string({ maxLength: 5 }),
  },
  { requiredKeys: ['id', 'name'] },
);
/** Plants with distinct ids, in id order, as a fold gives them. */
const plants = fc
  .uniqueArray(plant, { selector: (p) => p.id, maxLength: 12 })
  .map((list) => list.sort((a, b) => (a.id < b.id ? -1 : 1)) as NewPlant[]);

/**
 * The store file of `list`, each line given as text or (`asBytes`, by position) as bytes amid others, as a fold copies
 * a journal's.
 */
function written(
  list: readonly NewPlant[],
  asBytes: readonly boolean[] = [],
): { text: string; starts: Map<bigint, number> } {
  const chunks: Buffer[] = [];
  const starts = new Map<bigint, number>();
  const writer = new DatabaseWriter(
    (chunk) => chunks.push(Buffer.from(chunk)),
    (id, start) => starts.set(id, start),
  );
  list.forEach((p, i) => {
    const line = encodePlant(p);
    if (asBytes[i] === true) {
      // In two pieces, amid other bytes, as a line read across two blocks.
      const bytes = Buffer.from(`x\n${line}\ny`);
      const cut = 2 + Math.floor(Buffer.byteLength(line) / 2);
      writer.begin(p.id);
      writer.copy(bytes, 2, cut);
      writer.copy(bytes, cut, 2 + Buffer.byteLength(line));
    } else writer.text(p.id, line);
  });
  writer.end();
  return { text: Buffer.concat(chunks).toString('utf8'), starts };
}

/** The store file a fold of `snapshot` writes. */
function folded(snapshot: Snapshot | undefined): string {
  const chunks: Buffer[] = [];
  const writer = new DatabaseWriter((chunk) => chunks.push(Buffer.from(chunk)));
  snapshot?.writeTo(writer);
  writer.end();
  return Buffer.concat(chunks).toString('utf8');
}

/** The store file at `path` as a reader with no index reads it: whole, every plant checked, laid out in memory. */
function readWhole(path: string): DatabaseReader {
  return readDatabaseWhole(NODE_FS, openSync(path, 'r'), path, statSync(path).size);
}

/** The same file as one its index vouches for: found by halving it, never read whole. */
function readVouched(path: string, count: number): DatabaseReader {
  return new DatabaseReader(fileBytes(NODE_FS, openSync(path, 'r'), statSync(path).size), path, count);
}

describe('the store file as a fold writes it', () => {
  it('is the canonical layout, byte for byte, and says where each line is', () => {
    fc.assert(
      fc.property(plants, fc.array(fc.boolean(), { maxLength: 12 }), (list, asBytes) => {
        const { text, starts } = written(list, asBytes);
        expect(text).toBe(encodeDatabase(list));
        const bytes = Buffer.from(text);
        for (const p of list) {
          const start = (starts.get(p.id) as number) + INDENT.length;
          expect(bytes.toString('utf8', start, start + Buffer.byteLength(encodePlant(p)))).toBe(encodePlant(p));
        }
      }),
    );
  });

  it('writes a line longer than the chunks it gathers whole, as text or as bytes', () => {
    const chunks: Buffer[] = [];
    const writer = new DatabaseWriter((chunk) => chunks.push(Buffer.from(chunk)));
    const long = `{"id":1,"name":"${'é'.repeat(400_000)}"}`;
    const longer = Buffer.from(`{"id":2,"name":"${'a'.repeat(1_500_000)}"}`);
    writer.text(1n, long);
    writer.begin(2n);
    writer.copy(longer, 0, longer.length);
    expect(writer.end()).toBe(2);
    expect(chunks.length).toBeGreaterThan(2);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(
      `{\n  "plantStore": 1,\n  "plants": [\n${INDENT}${long},\n${INDENT}${longer.toString()}\n  ]\n}\n`,
    );
  });

  it('folds changes into a store file: an id’s journal line over the file’s, a deletion leaving it out', async () => {
    const dir = await tempDir();
    let n = 0;
    // Changes: new plants, new lines for plants of the file, and deletions of them (null).
    const change = fc.record({ pick: fc.nat(), plant, remove: fc.boolean(), renew: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(plants, fc.array(change, { maxLength: 12 }), fc.boolean(), async (before, picks, byHand) => {
        const path = join(dir, `${(n += 1)}.json`);
        // In our layout, or as a person might lay it out: with no index, the one is checked and read
        // where needed, the other read whole, into memory; either folds the same.
        const laidOutByHand = () =>
          '{"plants": [' +
          before
            .map((p) => {
              const tag = p.tag === undefined ? '' : `, "tag": ${JSON.stringify(p.tag)}`;
              return `{"name": ${JSON.stringify(p.name)}, "id": ${p.id}${tag}}`;
            })
            .join(', ') +
          '], "plantStore": 1}';
        writeFileSync(path, byHand ? laidOutByHand() : written(before).text);
        const changes = new Map<bigint, NewPlant | null>();
        for (const { pick, plant: fresh, remove, renew } of picks) {
          const old = before.length > 0 && renew ? before[pick % before.length] : undefined;
          const id = old?.id ?? fresh.id;
          changes.set(id, remove ? null : { ...(fresh as NewPlant), id });
        }
        writeFileSync(
          `${path}.journal`,
          [...changes]
            .map(([id, changed]) => `${changed === null ? `{"delete":${id}}` : encodePlant(changed)}\n`)
            .join(''),
        );
        const expected = new Map(before.map((p) => [p.id, p]));
        for (const [id, changed] of changes) {
          if (changed === null) expected.delete(id);
          else expected.set(id, changed);
        }
        const after = [...expected].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, p]) => p);
        const files = new StoreFiles(NODE_FS, path);
        const snapshot = files.open(files.stamp());
        try {
          expect(snapshot?.database.readWhole).toBe(byHand);
          expect(folded(snapshot)).toBe(encodeDatabase(after));
        } finally {
          files.forget(snapshot);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('folds a journal written in id order over blocks of it, deletions, a line in another form amid it', async () => {
    const dir = await tempDir();
    const path = join(dir, 'plants.json');
    const before = [
      { id: -5n, name: 'below' },
      { id: 40n, name: 'amid', tag: 'old' },
    ];
    writeFileSync(path, written(before).text);
    // Lines of up to 3,000 bytes, so that runs of them cross the journal's blocks, and lines cross them.
    const plant = (id: number): NewPlant => ({
      id: BigInt(id),
      name: `${'é'.repeat(id % 7 === 0 ? 990 : 3)}${id}`,
      ...(id % 3 === 0 ? { tag: 't' } : {}),
    });
    const lines: string[] = [];
    const expected = new Map(before.map((p) => [p.id, p as NewPlant]));
    for (let id = 1; id <= 600; id += 1) {
      if (id % 50 === 0) {
        lines.push(`{"delete":${id - 1}}`);
        expected.delete(BigInt(id - 1));
      } else if (id % 61 === 0) {
        lines.push(`{ "name": "by hand ${id}", "id": ${id} }`);
        expected.set(BigInt(id), { id: BigInt(id), name: `by hand ${id}` });
      } else {
        lines.push(encodePlant(plant(id)));
        expected.set(BigInt(id), plant(id));
      }
    }
    writeFileSync(`${path}.journal`, `${lines.join('\n')}\n`);
    expect(statSync(`${path}.journal`).size).toBeGreaterThan(2 * 64 * 1024);
    const files = new StoreFiles(NODE_FS, path);
    const snapshot = files.open(files.stamp());
    try {
      expect(folded(snapshot)).toBe(encodeDatabase([...expected.values()].sort((a, b) => (a.id < b.id ? -1 : 1))));
    } finally {
      files.forget(snapshot);
    }
  });

  it('is read back exactly, read whole or found by halving: every plant in id order, by id, after any id', async () => {
    const dir = await tempDir();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        plants,
        fc.array(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 5 }),
        async (list, others) => {
          const path = join(dir, `${(n += 1)}.json`);
          writeFileSync(path, written(list).text);
          for (const view of [readWhole(path), readVouched(path, list.length)]) {
            try {
              expect(view.plants).toBe(list.length);
              expect([...view.linesAfter(undefined)]).toEqual(list.map((p) => ({ id: p.id, line: encodePlant(p) })));
              for (const p of list) expect(view.lineOf(p.id)).toBe(encodePlant(p));
              for (const id of [...others, ...list.map((p) => p.id)]) {
                expect(view.lineOf(id)).toBe(
                  list.some((p) => p.id === id) ? encodePlant(list.find((p) => p.id === id) as NewPlant) : undefined,
                );
                expect([...view.linesAfter(id)].map((line) => line.id)).toEqual(
                  list.filter((p) => p.id > id).map((p) => p.id),
                );
              }
            } finally {
              view.close();
            }
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it('is found by halving in a file of many blocks, lines longer than a probe, whatever id is asked for', async () => {
    const path = join(await tempDir(), 'plants.json');
    // 5,000 plants, ids sparse and signed, a few names long enough to span the reads of a search.
    const list: NewPlant[] = Array.from({ length: 5_000 }, (_, i) => ({
      id: BigInt(i * 7919 - 20_000_000),
      name: i % 97 === 0 ? `long ${'x'.repeat(9_000)}` : `plant ${i}`,
    }));
    writeFileSync(path, encodeDatabase(list));
    const view = readVouched(path, list.length);
    try {
      for (let i = 0; i < list.length; i += 37) {
        const { id } = list[i] as NewPlant;
        expect(view.lineOf(id)).toBe(encodePlant(list[i] as NewPlant));
        expect(view.lineOf(id + 1n)).toBeUndefined();
        expect([...view.linesAfter(id - 1n)][0]?.id).toBe(id);
        expect([...view.linesAfter(id)][0]?.id).toBe(list[i + 1]?.id);
      }
      expect(view.lineOf(-(2n ** 63n))).toBeUndefined();
      expect([...view.linesAfter(2n ** 63n - 1n)]).toEqual([]);
    } finally {
      view.close();
    }
  });

  it('is read back exactly from memory when read whole, its layout in chunks, whatever id is asked for', async () => {
    const path = join(await tempDir(), 'plants.json');
    // Over 3 MiB laid out by hand, in reverse order: held as several chunks, lines across their edges.
    const list: NewPlant[] = Array.from({ length: 6_000 }, (_, i) => ({
      id: BigInt(i * 3 - 9_000),
      name: `${'é'.repeat(i % 11)}${'x'.repeat(250 + (i % 300))}`,
    }));
    writeFileSync(
      path,
      JSON.stringify(
        { plants: [...list].reverse().map((p) => ({ name: p.name, id: Number(p.id) })), plantStore: 1 },
        null,
        1,
      ),
    );
    const view = readWhole(path);
    try {
      expect(view.plants).toBe(list.length);
      for (let i = 0; i < list.length; i += 7) {
        const { id } = list[i] as NewPlant;
        expect(view.lineOf(id)).toBe(encodePlant(list[i] as NewPlant));
        expect(view.lineOf(id + 1n)).toBeUndefined();
        expect([...view.linesAfter(id)][0]?.id).toBe(list[i + 1]?.id);
      }
      expect([...view.linesAfter(undefined)].map(({ line }) => line)).toEqual(list.map(encodePlant));
    } finally {
      view.close();
    }
  });

  it(
    'tells a plant’s own line from another and from none, its ids in memory, asked in id order or not, lines ' +
      'across its blocks',
    async () => {
      const path = join(await tempDir(), 'plants.json');
      // Lines of up to 9 KB, so that some cross the blocks it keeps; the last line too.
      const list: NewPlant[] = Array.from({ length: 3_000 }, (_, i) => ({
        id: BigInt(i * 3 - 4_000),
        name: i % 89 === 0 || i === 2_999 ? `long ${'é'.repeat(900)}${'x'.repeat(7_000)}` : `plant ${i}`,
        ...(i % 2 === 0 ? { tag: 't' } : {}),
      }));
      writeFileSync(path, encodeDatabase(list));
      const bytes = fileBytes(NODE_FS, openSync(path, 'r'), statSync(path).size);
      const view = new DatabaseReader(bytes, path, list.length, new DatabaseLines(bytes, path).ids());
      try {
        const renamed = (p: NewPlant) => encodePlant({ ...p, name: `${p.name}!` });
        const shuffled = [...list].sort((a, b) => Number((a.id * 7919n) % 3001n) - Number((b.id * 7919n) % 3001n));
        for (const order of [list, shuffled, list]) {
          for (const p of order) {
            expect(view.holds(p.id, encodePlant(p))).toBe('same');
            expect(view.holds(p.id, renamed(p))).toBe('other');
            expect(view.holds(p.id + 1n, encodePlant({ ...p, id: p.id + 1n }))).toBe('absent');
          }
        }
      } finally {
        view.close();
      }
    },
  );

  it('is read whole into memory, in id order, when written in another order, and left as it is', async () => {
    const path = join(await tempDir(), 'plants.json');
    writeFileSync(
      path,
      encodeDatabase([
        { id: 3n, name: 'c' },
        { id: -1n, name: 'a' },
        { id: 2n, name: 'b' },
      ]),
    );
    const view = readWhole(path);
    expect([...view.linesAfter(undefined)].map(({ line }) => line)).toEqual([
      '{"id":-1,"name":"a"}',
      '{"id":2,"name":"b"}',
      '{"id":3,"name":"c"}',
    ]);
    view.close();
    expect(readFileSync(path, 'utf8')).toBe(
      encodeDatabase([
        { id: 3n, name: 'c' },
        { id: -1n, name: 'a' },
        { id: 2n, name: 'b' },
      ]),
    );
  });
});
