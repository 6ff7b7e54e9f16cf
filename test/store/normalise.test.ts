import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { checkpointedStore, storedPlants } from '../helpers/stored-plants.js';
import { countingFs } from '../helpers/counting-fs.js';
import { tempDir } from '../helpers/temp.js';

// A store file no index vouches for (edited by hand, copied, written by another program) is read
// whole, every plant checked, and checkpointed by the first command that meets it, a read too:
// rewritten in the canonical layout, with its index, so that every command after it reads it where
// needed. Where it may not be written, it is read whole and answered from memory, and left as it is.

const storePath = async () => join(await tempDir(), 'plants.json');
const names = async (path: string) => [...(await storedPlants(path)).values()].map((plant) => plant.name);
const byId = (plants: NewPlant[]) => [...plants].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** The names in `dir` and what each file holds (a directory: its mtime). */
function filesOf(dir: string): Record<string, string> {
  const what = (path: string) =>
    statSync(path).isDirectory() ? `a directory of ${statSync(path).mtimeMs}` : readFileSync(path, 'latin1');
  return Object.fromEntries(readdirSync(dir).map((name) => [name, what(join(dir, name))]));
}

describe('a store file no index vouches for', () => {
  it(
    'pretty-printed by hand (keys in any order, a field more, CRLF, a byte order mark) is read correctly, and ' +
      'after the first command it is canonical with an index',
    async () => {
      const path = await storePath();
      // 2,000 plants, laid out as a person or another program might; ids exact past 2^53.
      const plants: NewPlant[] = Array.from({ length: 2_000 }, (_, i) => ({
        id: 2n ** 60n - BigInt(i * 7),
        name: `Plant ${i} é`,
        ...(i % 3 === 0 ? { tag: 'herb' } : {}),
      }));
      const entry = (p: NewPlant, i: number) =>
        i % 2 === 0
          ? `    {\r\n      "name": ${JSON.stringify(p.name)},\r\n      "id": ${p.id}` +
            `${p.tag === undefined ? '' : `,\r\n      "tag": "${p.tag}"`},\r\n      "note": "kept by hand"\r\n    }`
          : `    { "id": ${p.id}, "name": "${p.name.replace('é', '\\u00e9')}"` +
            `${p.tag === undefined ? '' : `, "tag": "${p.tag}"`} }`;
      await writeFile(
        path,
        `\uFEFF{\r\n  "plants": [\r\n${plants.map(entry).join(',\r\n')}\r\n  ],\r\n  "plantStore": 1\r\n}\r\n`,
      );
      // And a journal beside it, which the checkpoint folds in.
      await writeFile(`${path}.journal`, '{"id":5,"name":"Journaled"}\n');
      const expected = byId([...plants, { id: 5n, name: 'Journaled' }]);

      // The first command, a read.
      const first = await FileStore.open(path);
      expect(await first.get(2n ** 60n - 7n)).toEqual(plants[1]);
      await first.close();
      expect(await readFile(path, 'utf8')).toBe(encodeDatabase(expected));
      expect(existsSync(`${path}.index`)).toBe(true);
      expect(existsSync(`${path}.journal`)).toBe(false);

      // Every command after it reads it where needed, and leaves it as it is.
      const { ino } = statSync(path);
      const fs = countingFs();
      const next = await FileStore.open(path, { fs });
      expect(await next.get(2n ** 60n - 700n)).toEqual(plants[100]);
      expect((await next.list({ limit: 2 })).map((plant) => plant.id)).toEqual(
        expected.slice(0, 2).map((plant) => plant.id),
      );
      await next.close();
      expect(fs.bytesRead.get(path)).toBeLessThan(16 * 1024);
      expect(fs.bytesRead.get(path)).toBeLessThan(statSync(path).size / 4);
      expect(statSync(path).ino).toBe(ino);
      expect([...(await storedPlants(path)).values()]).toEqual(expected);
    },
  );

  it('reads any JSON layout of the format exactly, and is canonical after the first command', async () => {
    const path = await storePath();
    await writeFile(
      path,
      `{"plants": [
         { "name": "Caf\\u00e9", "id": 9223372036854775807 },
         {"id": 1.0e1, "tag": "x", "name": "Ten", "note": "dropped"}
       ], "plantStore": 1}`,
    );
    expect([...(await storedPlants(path)).values()]).toEqual([
      { id: 10n, name: 'Ten', tag: 'x' },
      { id: 9223372036854775807n, name: 'Café' },
    ]);
    expect(await readFile(path, 'utf8')).toBe(
      '{\n  "plantStore": 1,\n  "plants": [\n    {"id":10,"name":"Ten","tag":"x"},\n    ' +
        '{"id":9223372036854775807,"name":"Café"}\n  ]\n}\n',
    );
    expect(existsSync(`${path}.index`)).toBe(true);
  });

  it('reads a plant split over lines inside our layout, and puts it back on one line', async () => {
    const path = await storePath();
    await writeFile(path, '{\n  "plantStore": 1,\n  "plants": [\n    {"id":1,\n    "name":"Fern"}\n  ]\n}\n');
    const store = await FileStore.open(path);
    expect(await readFile(path, 'utf8')).toBe(encodeDatabase([{ id: 1n, name: 'Fern' }]));
    await store.addAll([
      { id: 2n, name: 'Oak' },
      { id: 3n, name: 'Pine' },
    ]);
    await store.close();
    expect(await names(path)).toEqual(['Fern', 'Oak', 'Pine']);
  });

  it('adds to an empty store laid out over lines by hand', async () => {
    const path = await storePath();
    await writeFile(path, '{\n  "plantStore": 1,\n  "plants": [\n  ]\n}\n');
    const store = await FileStore.open(path);
    await store.addAll([{ id: 1n, name: 'Fern' }]);
    await store.close();
    expect(await names(path)).toEqual(['Fern']);
  });

  it.each([
    [
      'a name too long',
      `{"id":1,"name":"${'x'.repeat(1001)}"}`,
      /plants\[0\]: invalid plant: name must be at most 1,000 characters/,
    ],
    ['an id out of range', '{"id":9223372036854775808,"name":"x"}', /plants\[0\]: invalid plant: id must be between/],
    ['a repeated key', '{"id":1,"name":"x","name":"y"}', /plants\[0\] is not JSON|Duplicate key/],
  ])('refuses a canonical-looking line with %s', async (_what, line, message) => {
    const path = await storePath();
    const content = `{\n  "plantStore": 1,\n  "plants": [\n    ${line}\n  ]\n}\n`;
    await writeFile(path, content);
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'store_corrupt',
      message: expect.stringMatching(message),
    });
    expect(await readFile(path, 'utf8')).toBe(content);
  });

  it('checks every plant before it writes anything: one invalid plant last, nothing written beside it', async () => {
    const path = await storePath();
    const content = encodeDatabase(
      Array.from({ length: 3_000 }, (_, i) => ({ id: BigInt(3_000 - i), name: `p${i}` })),
    ).replace('{"id":1,"name":"p2999"}', '{"id":1.5,"name":"p2999"}');
    await writeFile(path, content);
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'store_corrupt',
      message: expect.stringContaining('plants[2999]: invalid plant'),
    });
    expect(readdirSync(join(path, '..'))).toEqual(['plants.json']);
    expect(await readFile(path, 'utf8')).toBe(content);
  });

  it('is checkpointed by the next write where a read could not take the lock', async () => {
    const path = await storePath();
    const content = '{"plantStore": 1, "plants": [{"id": 2, "name": "Oak"}]}';
    await writeFile(path, content);
    mkdirSync(`${path}.lock`);
    // Another process holds the lock: the read answers from memory, and writes nothing.
    const store = await FileStore.open(path);
    expect(await store.get(2n)).toEqual({ id: 2n, name: 'Oak' });
    expect(await readFile(path, 'utf8')).toBe(content);
    rmdirSync(`${path}.lock`);
    expect(await store.addAll([{ id: 1n, name: 'Fern' }])).toEqual(['added']);
    await store.close();
    expect(await readFile(path, 'utf8')).toBe(encodeDatabase([{ id: 2n, name: 'Oak' }]));
    expect(existsSync(`${path}.index`)).toBe(true);
    expect(await names(path)).toEqual(['Fern', 'Oak']);
  });
});

describe('a store file in our layout that no index vouches for (the store copied elsewhere)', () => {
  it('is read where needed, gets an index, and is not rewritten: checked a block at a time', async () => {
    // 60,000 plants (about 2.5 MiB), some names of non-ASCII and some ids past 2^53 (checked
    // through the slower path); the store checkpointed where it was made, then copied elsewhere.
    const plants: NewPlant[] = Array.from({ length: 60_000 }, (_, i) => ({
      id: i < 59_990 ? BigInt(i * 3 - 9_000) : 2n ** 62n + BigInt(i),
      name: i % 1_000 === 0 ? `Plant ${i} é` : `Plant ${i}`,
      ...(i % 2 === 0 ? { tag: 'herb' } : {}),
    }));
    const made = join(await tempDir(), 'plants.json');
    await checkpointedStore(made, plants);
    const path = await storePath();
    copyFileSync(made, path);
    writeFileSync(`${path}.journal`, '{"id":1,"name":"Journaled"}\n{"delete":-9000}\n');
    const bytes = readFileSync(path);
    const { ino } = statSync(path);
    const expected = byId([...plants.slice(1), { id: 1n, name: 'Journaled' }]);

    // The first command, a read: every read of the file a block (1 MiB) at most, never the file whole.
    let largest = 0;
    const fds = new Set<number>();
    const fs: FileSystem = {
      ...NODE_FS,
      openSync: ((file: string, flags: string, mode?: number) => {
        const fd = NODE_FS.openSync(file, flags, mode);
        if (file === path) fds.add(fd);
        else fds.delete(fd);
        return fd;
      }) as FileSystem['openSync'],
      readSync: ((fd: number, into: Buffer, offset: number, length: number, position: number) => {
        if (fds.has(fd)) largest = Math.max(largest, length);
        return NODE_FS.readSync(fd, into, offset, length, position);
      }) as FileSystem['readSync'],
    };
    const first = await FileStore.open(path, { fs });
    expect(await first.get(2n ** 62n + 59_995n)).toEqual(plants[59_995]);
    expect(await first.get(3_000n)).toEqual(plants[4_000]);
    expect(await first.get(1n)).toEqual({ id: 1n, name: 'Journaled' });
    expect(await first.get(-9_000n)).toBeUndefined();
    await first.close();
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(1024 * 1024);
    expect(statSync(path).ino).toBe(ino);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(existsSync(`${path}.index`)).toBe(true);
    expect(readFileSync(`${path}.journal`, 'utf8')).toBe('{"id":1,"name":"Journaled"}\n{"delete":-9000}\n');

    // Every command after it reads it where needed, by that index.
    const counting = countingFs();
    const next = await FileStore.open(path, { fs: counting });
    expect(await next.get(0n)).toEqual(plants[3_000]);
    await next.close();
    expect(counting.bytesRead.get(path)).toBeLessThan(16 * 1024);
    expect([...(await storedPlants(path)).values()]).toEqual(expected);
    expect(statSync(path).ino).toBe(ino);
  });

  const oak = { id: 2n, name: 'Oak', tag: 'tree' };
  const ours = encodeDatabase([{ id: 1n, name: 'Fern' }, oak]);
  it.each([
    ['ids out of order', ours.replace('"id":1,', '"id":3,'), [oak, { id: 3n, name: 'Fern' }]],
    ['a space in a line', ours.replace('"id":1,', '"id": 1,'), undefined],
    ['a key out of order', ours.replace('{"id":1,"name":"Fern"}', '{"name":"Fern","id":1}'), undefined],
    ['an escape JSON.stringify would not write', ours.replace('Fern', '\\u0046ern'), undefined],
    ['a byte that is not UTF-8', ours.replace('Fern', 'F\u00ffern'), [{ id: 1n, name: 'F\ufffdern' }, oak]],
    ['an indent of two spaces', ours.replace('    {"id":1', '  {"id":1'), undefined],
    ['no comma between two plants', ours.replace('"Fern"},', '"Fern"}'), 'store_corrupt'],
    ['a comma after the last plant', ours.replace('"tree"}', '"tree"},'), 'store_corrupt'],
    ['a blank line', ours.replace('\n  ]', '\n\n  ]'), undefined],
    ['no line feed at its end', ours.slice(0, -1), undefined],
    ['text after it', `${ours}\n`, undefined],
    ['a repeated id', ours.replace('"id":2,', '"id":1,'), 'store_corrupt'],
  ] as const)('is read the lossless way, not as ours, where it has %s', async (_what, content, outcome) => {
    const path = await storePath();
    writeFileSync(path, content, 'latin1');
    if (outcome === 'store_corrupt') {
      await expect(FileStore.open(path)).rejects.toMatchObject({ code: 'store_corrupt' });
      expect(readFileSync(path, 'latin1')).toBe(content);
      return;
    }
    const plants = outcome ?? [{ id: 1n, name: 'Fern' }, oak];
    expect([...(await storedPlants(path)).values()]).toEqual(plants);
    // Checkpointed into our layout: a file that was not in it.
    expect(readFileSync(path, 'utf8')).toBe(encodeDatabase(plants));
  });
});

describe('a store file no index vouches for, whose checkpoint fails', () => {
  const content = '{"plantStore": 1, "plants": [{"id": 2, "name": "Oak"}, {"id": 1, "name": "Fern"}]}';
  const fails = (code: string) => Object.assign(new Error(`${code}: injected`), { code });

  it.each([
    ['before its rename (a full disk)', 'ENOSPC'],
    ['after its rename (a directory that cannot be synced)', 'EIO'],
  ])(
    '%s costs the read nothing: it answers from what it read, and a later command checkpoints',
    async (_when, code) => {
      const dir = await tempDir();
      const path = join(dir, 'plants.json');
      writeFileSync(path, content);
      writeFileSync(`${path}.journal`, '{"id":3,"name":"Ivy"}\n');
      let renamed = false;
      const fs: FileSystem = {
        ...NODE_FS,
        openSync: ((file: string, flags: string, mode?: number) => {
          if (code === 'ENOSPC' && flags === 'wx') throw fails(code);
          return NODE_FS.openSync(file, flags, mode);
        }) as FileSystem['openSync'],
        renameSync: ((from: string, to: string) => {
          NODE_FS.renameSync(from, to);
          renamed = true;
        }) as FileSystem['renameSync'],
        fsyncSync: ((fd: number) => {
          if (code === 'EIO' && renamed && NODE_FS.fstatSync(fd).isDirectory()) throw fails(code);
          NODE_FS.fsyncSync(fd);
        }) as FileSystem['fsyncSync'],
      };
      const store = await FileStore.open(path, { fs });
      const plants = [
        { id: 1n, name: 'Fern' },
        { id: 2n, name: 'Oak' },
        { id: 3n, name: 'Ivy' },
      ];
      expect(await store.list({ limit: 10 })).toEqual(plants);
      expect(await store.get(2n)).toEqual({ id: 2n, name: 'Oak' });
      await store.close();
      // Before the rename, nothing changed; after it, the new file holds the same plants, the journal kept.
      if (code === 'ENOSPC') expect(readFileSync(path, 'utf8')).toBe(content);
      expect(readFileSync(`${path}.journal`, 'utf8')).toBe('{"id":3,"name":"Ivy"}\n');
      expect([...(await storedPlants(path)).values()]).toEqual(plants);
      expect(readFileSync(path, 'utf8')).toBe(encodeDatabase(plants));
      expect(existsSync(`${path}.index`)).toBe(true);
    },
  );
});

describe('a store file no index vouches for, where it may not be written', () => {
  const content = '{\n  "plantStore": 1,\n  "plants": [ {"name": "Oak", "id": 2}, {"id": 1, "name": "Fern"} ]\n}\n';

  /** Reads the store at `path` twice, each as a command does, and says what it read. */
  async function readTwice(path: string): Promise<NewPlant[][]> {
    return [[...(await storedPlants(path)).values()], [...(await storedPlants(path)).values()]];
  }

  it('is read whole and answered from memory, nothing written, in a store made read-only', async () => {
    const dir = await tempDir();
    const path = join(dir, 'plants.json');
    writeFileSync(path, content);
    chmodSync(path, 0o444);
    const before = filesOf(dir);
    expect(await readTwice(path)).toEqual(
      Array(2).fill([
        { id: 1n, name: 'Fern' },
        { id: 2n, name: 'Oak' },
      ]),
    );
    expect(filesOf(dir)).toEqual(before);
  });

  it('is read whole and answered from memory, nothing written, while another process holds the lock', async () => {
    const dir = await tempDir();
    const path = join(dir, 'plants.json');
    writeFileSync(path, content);
    mkdirSync(`${path}.lock`);
    const before = filesOf(dir);
    expect(await readTwice(path)).toEqual(
      Array(2).fill([
        { id: 1n, name: 'Fern' },
        { id: 2n, name: 'Oak' },
      ]),
    );
    expect(filesOf(dir)).toEqual(before);
    expect(existsSync(`${path}.lock`)).toBe(true);
  });
});
