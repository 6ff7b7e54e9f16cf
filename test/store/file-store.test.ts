import {
  appendFileSync,
  existsSync,
  mkdirSync,
  renameSync,
  rmdirSync,
  statSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPlant } from '../../src/core/create.js';
import type { NewPlant } from '../../src/core/schemas.js';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { DEFAULT_CHECKPOINT_AT, FileStore, type FileStoreOptions } from '../../src/store/file/file-store.js';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { STALE_MS } from '../../src/store/file/store-lock.js';
import { faultyFs } from '../helpers/faulty-fs.js';
import { allPlants, storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

const storePath = async () => join(await tempDir(), 'plants.json');
const names = async (path: string) => [...(await storedPlants(path)).values()].map((plant) => plant.name);
const many = (from: number, count: number, name = 'p'): NewPlant[] =>
  Array.from({ length: count }, (_, i) => ({ id: BigInt(from + i), name: `${name}${from + i}` }));

/** Opens, runs, closes. */
async function withStore<T>(
  path: string,
  work: (store: FileStore) => Promise<T>,
  options: FileStoreOptions = {},
): Promise<T> {
  const store = await FileStore.open(path, options);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

describe('the JSON file store', () => {
  it('is created on first write, with its directory, and holds ids digit for digit', async () => {
    const path = join(await tempDir(), 'deep', 'dir', 'plants.json');
    await withStore(path, async (store) => {
      await createPlant(store, { id: 9223372036854775807n, name: 'Max', tag: 'herb' });
      await createPlant(store, { id: -9223372036854775808n, name: 'Min' });
    });
    expect(await readFile(`${path}.journal`, 'utf8')).toBe(
      '{"id":9223372036854775807,"name":"Max","tag":"herb"}\n{"id":-9223372036854775808,"name":"Min"}\n',
    );
    expect([...(await storedPlants(path)).keys()]).toEqual([-9223372036854775808n, 9223372036854775807n]);
  });

  it('refuses a duplicate id and leaves the files as they were', async () => {
    const path = await storePath();
    await withStore(path, async (store) => {
      await createPlant(store, { id: 1n, name: 'Fern' });
      const before = await readFile(`${path}.journal`, 'utf8');
      await expect(createPlant(store, { id: 1n, name: 'Oak' })).rejects.toMatchObject({
        code: 'duplicate_id',
        error: 1002,
      });
      expect(await readFile(`${path}.journal`, 'utf8')).toBe(before);
    });
  });

  it('adds a batch with one write, refusing ids taken before or earlier in the batch', async () => {
    const path = await storePath();
    await withStore(path, async (store) => {
      await store.addAll([{ id: 1n, name: 'a' }]);
      const outcomes = await store.addAll([
        { id: 2n, name: 'b' },
        { id: 1n, name: 'again' },
        { id: 2n, name: 'twice' },
        { id: 3n, name: 'c' },
      ]);
      expect(outcomes).toEqual(['added', 'duplicate', 'duplicate', 'added']);
      expect([...(await allPlants(store)).values()].map((plant) => plant.name)).toEqual(['a', 'b', 'c']);
    });
  });

  it('sees what another writer added since its own last write (a server sharing the file with --local)', async () => {
    const path = await storePath();
    const server = await FileStore.open(path);
    const local = await FileStore.open(path);
    await server.addAll([{ id: 1n, name: 'from server' }]);
    await local.addAll([{ id: 2n, name: 'from local' }]);
    expect(
      await server.addAll([
        { id: 2n, name: 'again' },
        { id: 3n, name: 'new' },
      ]),
    ).toEqual(['duplicate', 'added']);
    expect([...(await allPlants(local)).values()].map((plant) => plant.name)).toEqual([
      'from server',
      'from local',
      'new',
    ]);
    await server.close();
    await local.close();
  });

  it('forgets plants whose write failed', async () => {
    const path = await storePath();
    const fs = faultyFs();
    await withStore(
      path,
      async (store) => {
        await store.addAll([{ id: 1n, name: 'kept' }]);
        fs.room = 0;
        await expect(store.addAll([{ id: 2n, name: 'lost' }])).rejects.toMatchObject({ code: 'store_io' });
        fs.room = Infinity;
        expect(await store.addAll([{ id: 2n, name: 'retried' }])).toEqual(['added']);
      },
      { fs },
    );
    expect(await names(path)).toEqual(['kept', 'retried']);
  });

  it('leaves no lock or temp file behind', async () => {
    const dir = await tempDir();
    await withStore(join(dir, 'plants.json'), (store) => createPlant(store, { id: 1n, name: 'Fern' }), {
      checkpointAt: 0,
    });
    await withStore(join(dir, 'plants.json'), (store) => createPlant(store, { id: 2n, name: 'Oak' }), {
      checkpointAt: 0,
    });
    expect((await readdir(dir)).sort()).toEqual(['plants.json', 'plants.json.index', 'plants.json.journal']);
  });

  it('waits for a lock another process holds, says so after a second, and gives up with store_locked', async () => {
    const path = await storePath();
    let told = 0;
    const store = await FileStore.open(path, { lockWaitMs: 1_300, onLockWait: () => (told += 1) });
    await mkdir(`${path}.lock`); // held, and fresh: another process's
    const started = Date.now();
    await expect(createPlant(store, { id: 1n, name: 'Fern' })).rejects.toMatchObject({
      code: 'store_locked',
      message: expect.stringContaining(path),
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_300);
    expect(told).toBe(1);
    expect(existsSync(`${path}.journal`)).toBe(false);
    await store.close();
  });

  it('takes over a lock left 10 s stale by a killed process', async () => {
    const path = await storePath();
    await mkdir(`${path}.lock`);
    const longAgo = new Date(Date.now() - 11_000);
    await utimes(`${path}.lock`, longAgo, longAgo);
    await withStore(path, (store) => createPlant(store, { id: 1n, name: 'Fern' }), { lockWaitMs: 1_000 });
    expect([...(await storedPlants(path)).keys()]).toEqual([1n]);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  describe('a lock taken over while held (the holder stalled past staleness: SIGSTOP, a long GC)', () => {
    /** Another process's takeover of the lock as stale: rmdir, mkdir. Returns the new lock's identity. */
    const takeOver = (lockPath: string) => {
      rmdirSync(lockPath);
      mkdirSync(lockPath);
      const info = statSync(lockPath, { bigint: true });
      return `${info.ino}:${info.mtimeNs}`;
    };
    const identity = (lockPath: string) => {
      const info = statSync(lockPath, { bigint: true });
      return `${info.ino}:${info.mtimeNs}`;
    };

    it('fails the write with store_locked, effect none, appends nothing, leaves the lock to its holder', async () => {
      const path = await storePath();
      const lockPath = `${path}.lock`;
      await withStore(path, (store) => store.addAll(many(1, 2)));
      const journal = await readFile(`${path}.journal`);
      // Taken over right after the store took it: at its first look at the lock after the one that
      // recorded it as made.
      let recorded = false;
      let theirs: string | undefined;
      const fs: FileSystem = {
        ...NODE_FS,
        lstatSync: ((file: string, options: { bigint: true }) => {
          if (file === lockPath && theirs === undefined) {
            if (recorded) theirs = takeOver(lockPath);
            recorded = true;
          }
          return NODE_FS.lstatSync(file, options);
        }) as FileSystem['lstatSync'],
      };
      const store = await FileStore.open(path, { fs });
      await expect(store.addAll(many(3, 1))).rejects.toMatchObject({
        code: 'store_locked',
        effect: 'none',
        message: expect.stringContaining(path),
      });
      expect(await readFile(`${path}.journal`)).toEqual(journal);
      expect(identity(lockPath)).toBe(theirs);
      // Once the other process is done, the plant is taken as if never sent.
      rmdirSync(lockPath);
      expect(await store.addAll(many(3, 1))).toEqual(['added']);
      await store.close();
      expect([...(await storedPlants(path)).keys()]).toEqual([1n, 2n, 3n]);
    });

    it('fails a write that folds with store_locked before the rename: store file, journal as they were', async () => {
      const path = await storePath();
      const lockPath = `${path}.lock`;
      // A store file of three plants, and a journal of four, which the next write folds.
      await withStore(path, async (store) => (await store.addAll(many(1, 3)), await store.addAll(many(4, 4))), {
        checkpointAt: 0,
      });
      const [file, journal] = [await readFile(path), await readFile(`${path}.journal`)];
      // Taken over while the fold writes the new store file.
      let theirs: string | undefined;
      const fs: FileSystem = {
        ...NODE_FS,
        openSync: ((name: string, flags: string, mode?: number) => {
          if (flags === 'wx' && theirs === undefined) theirs = takeOver(lockPath);
          return NODE_FS.openSync(name, flags, mode);
        }) as FileSystem['openSync'],
      };
      const store = await FileStore.open(path, { fs, checkpointAt: 0 });
      await expect(store.addAll(many(8, 1))).rejects.toMatchObject({ code: 'store_locked', effect: 'none' });
      expect(await readFile(path)).toEqual(file);
      expect(await readFile(`${path}.journal`)).toEqual(journal);
      expect((await readdir(dirname(path))).sort()).toEqual([
        'plants.json',
        'plants.json.index',
        'plants.json.journal',
        'plants.json.lock',
      ]);
      expect(identity(lockPath)).toBe(theirs);
      await store.close();
    });
  });

  describe("a fold that outlasts the lock's staleness (millions of plants, a slow disk)", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("keeps the lock fresh, to the journal's removal: a waiter never finds it stale", async () => {
      const path = await storePath();
      const lockPath = `${path}.lock`;
      // A journal of 16 MiB, which the next write folds (checkpointAt 0, no store file).
      const plants = many(1, 16_000, 'x'.repeat(990));
      await writeFile(`${path}.journal`, plants.map((plant) => `{"id":${plant.id},"name":"${plant.name}"}\n`).join(''));
      // The clock only: a fold is synchronous, the lock's refresh timer could not run during it.
      vi.useFakeTimers({ toFake: ['Date'] });
      // Each MiB of the new store file takes a second to write, each fsync 6 s; a waiter looks at
      // the lock after each write and when the journal is removed.
      const stale: string[] = [];
      const waiterLooks = (when: string) => {
        const age = Date.now() - Number(NODE_FS.lstatSync(lockPath, { bigint: true }).mtimeMs);
        if (age > STALE_MS) stale.push(`${when}: ${age} ms`);
      };
      let temp: number | undefined;
      const fs: FileSystem = {
        ...NODE_FS,
        openSync: ((file: string, flags: string, mode?: number) => {
          const fd = NODE_FS.openSync(file, flags, mode);
          if (flags === 'wx') temp = fd;
          return fd;
        }) as FileSystem['openSync'],
        writeSync: ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
          const written = NODE_FS.writeSync(fd, buffer, offset, length);
          if (fd === temp) {
            vi.setSystemTime(Date.now() + (written / (1024 * 1024)) * 1_000);
            waiterLooks('a write');
          }
          return written;
        }) as FileSystem['writeSync'],
        fsyncSync: ((fd: number) => {
          NODE_FS.fsyncSync(fd);
          vi.setSystemTime(Date.now() + 6_000);
        }) as FileSystem['fsyncSync'],
        unlinkSync: ((file: string) => {
          if (file === `${path}.journal`) waiterLooks('the journal removed');
          NODE_FS.unlinkSync(file);
        }) as FileSystem['unlinkSync'],
      };
      await withStore(path, (store) => store.addAll(many(16_001, 1)), { fs, checkpointAt: 0 });
      expect(temp).toBeDefined();
      expect(stale).toEqual([]);
      expect(await readFile(`${path}.journal`, 'utf8')).toBe('{"id":16001,"name":"p16001"}\n');
      expect((await storedPlants(path)).size).toBe(16_001);
    });
  });

  it.each([
    ['not JSON', '{"plantStore": 1, "plants": [', /not valid JSON/],
    ['empty', '', /not valid JSON/],
    ['someone else’s JSON', '{"name": "my-app", "version": "1.0.0"}', /not a plants store file/],
    ['a JSON array', '[{"id": 1, "name": "Fern"}]', /not a plants store file/],
    ['a newer format', '{"plantStore": 2, "plants": []}', /unsupported format version 2/],
    [
      'an invalid plant',
      '{"plantStore": 1, "plants": [{"id": 1.5, "name": "x"}]}',
      /plants\[0\]: invalid plant: id must be an integer/,
    ],
    [
      'a repeated id',
      '{"plantStore": 1, "plants": [{"id": 1, "name": "x"}, {"id": 1, "name": "y"}]}',
      /plants\[1\]: id 1 appears twice/,
    ],
  ])('refuses a store file that is %s, and never overwrites it', async (_what, content, message) => {
    const path = await storePath();
    await writeFile(path, content);
    const failure = await FileStore.open(path).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'store_corrupt', error: 2008 });
    expect((failure as Error).message).toMatch(message);
    expect((failure as Error).message).toContain(path);
    expect(await readFile(path, 'utf8')).toBe(content);
  });

  it('keeps the mode of an existing store file when it folds into it', async () => {
    const path = await storePath();
    await writeFile(path, '{"plantStore": 1, "plants": []}', { mode: 0o640 });
    await withStore(path, (store) => store.addAll(many(1, 2)), { checkpointAt: 0 });
    await withStore(path, (store) => store.addAll(many(3, 1)), { checkpointAt: 0 });
    expect((await stat(path)).mode & 0o777).toBe(0o640);
  });

  it('reports a store it cannot write as store_io, naming the path', async () => {
    const dir = await tempDir();
    const blocker = join(dir, 'file');
    await writeFile(blocker, 'not a directory');
    const path = join(blocker, 'plants.json');
    await expect(
      FileStore.open(path).then((store) => createPlant(store, { id: 1n, name: 'Fern' })),
    ).rejects.toMatchObject({
      code: 'store_io',
      message: expect.stringContaining(path),
    });
  });

  it(
    'takes the lock once for the writes of one hold, as a busy server batches them, and lets it go when the hold ' +
      'ends',
    async () => {
      const path = await storePath();
      let locks = 0;
      const fs: FileSystem = {
        ...NODE_FS,
        mkdirSync: ((dir: string, options?: unknown) => {
          if (dir === `${path}.lock`) locks += 1;
          return NODE_FS.mkdirSync(dir, options as never);
        }) as FileSystem['mkdirSync'],
      };
      const store = await FileStore.open(path, { fs });
      try {
        // Ten writes queued in one turn, as a busy server's requests come: its batching store holds
        // the file store from the first batch until nothing more waits, so one lock for all of them.
        const batching = new BatchingStore(store);
        await Promise.all(Array.from({ length: 10 }, (_, i) => batching.addAll([{ id: BigInt(i), name: `p${i}` }])));
        await batching.drain();
        expect(locks).toBe(1);
        // The hold is over: the lock is let go at once, for other processes; the next write takes it again.
        expect(existsSync(`${path}.lock`)).toBe(false);
        await store.hold(async (writer) => {
          expect(await writer.addAll([{ id: 10n, name: 'p10' }])).toEqual(['added']);
          expect(await writer.deleteAll([0n])).toEqual(['deleted']);
        });
        expect(locks).toBe(2);
      } finally {
        await store.close();
      }
      // Closed: nothing held.
      expect(existsSync(`${path}.lock`)).toBe(false);
      expect((await storedPlants(path)).size).toBe(10);
    },
  );

  it('takes the lock anew for the next write of a hold when the one it held was lost', async () => {
    const path = await storePath();
    const lockPath = `${path}.lock`;
    let locks = 0;
    let removed = false;
    const fs: FileSystem = {
      ...NODE_FS,
      mkdirSync: ((dir: string, options?: unknown) => {
        if (dir === lockPath) locks += 1;
        return NODE_FS.mkdirSync(dir, options as never);
      }) as FileSystem['mkdirSync'],
      // Once the first write's lines are durable, the lock it holds is removed (by someone who
      // followed the hint of a store_locked, or by a process that took it over and is done).
      fdatasync: ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) =>
        NODE_FS.fdatasync(fd, (error) => {
          if (!removed) {
            removed = true;
            rmdirSync(lockPath);
          }
          callback(error);
        })) as FileSystem['fdatasync'],
    };
    const store = await FileStore.open(path, { fs });
    try {
      // One hold, two writes: the second finds the lease lost, and takes the lock again to write.
      expect(
        await store.hold(async (writer) => [await writer.addAll(many(1, 1)), await writer.addAll(many(2, 1))]),
      ).toEqual([['added'], ['added']]);
      expect(removed).toBe(true);
      expect(locks).toBe(2);
    } finally {
      await store.close();
    }
    expect(existsSync(lockPath)).toBe(false);
    expect([...(await storedPlants(path)).keys()]).toEqual([1n, 2n]);
  });

  it('runs concurrent calls on one instance one at a time', async () => {
    const path = await storePath();
    await withStore(path, async (store) => {
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.addAll([{ id: BigInt(i % 10), name: `p${i}` }])),
      );
      expect(outcomes.flat().filter((outcome) => outcome === 'added')).toHaveLength(10);
    });
    expect((await storedPlants(path)).size).toBe(10);
  });
});

describe('the journal and the fold', () => {
  it('appends every write to the journal, reads store file and journal together, folds them in id order', async () => {
    const path = await storePath();
    await withStore(
      path,
      async (store) => {
        await store.addAll([{ id: 3n, name: 'c' }]);
        await store.addAll([
          { id: 1n, name: 'a' },
          { id: 3n, name: 'dup' },
        ]);
        await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
        expect(await readFile(`${path}.journal`, 'utf8')).toBe('{"id":3,"name":"c"}\n{"id":1,"name":"a"}\n');
        expect(await names(path)).toEqual(['a', 'c']);
      },
      { checkpointAt: 2 },
    );
    // The next write would make the journal larger than allowed: it folds first, then appends.
    await withStore(path, (store) => store.addAll([{ id: 2n, name: 'b' }]), { checkpointAt: 2 });
    expect(await readFile(path, 'utf8')).toBe(
      encodeDatabase([
        { id: 1n, name: 'a' },
        { id: 3n, name: 'c' },
      ]),
    );
    expect(await readFile(`${path}.journal`, 'utf8')).toBe('{"id":2,"name":"b"}\n');
    expect(await names(path)).toEqual(['a', 'b', 'c']);
  });

  it('folds on its own once the journal holds DEFAULT_CHECKPOINT_AT lines and more than the store file', async () => {
    const path = await storePath();
    const batch = DEFAULT_CHECKPOINT_AT / 10;
    await withStore(path, async (store) => {
      for (let i = 0; i < 10; i += 1) await store.addAll(many(i * batch, batch));
      await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await readFile(`${path}.journal`, 'utf8')).split('\n').length - 1).toBe(DEFAULT_CHECKPOINT_AT);
      // Ten batches fit in the journal; the eleventh would make it larger than allowed, so the
      // journal is folded into the store file first, and the batch starts a new journal.
      await store.addAll(many(DEFAULT_CHECKPOINT_AT, batch));
      expect((await readFile(`${path}.journal`, 'utf8')).split('\n').length - 1).toBe(batch);
    });
    expect((await storedPlants(path)).size).toBe(DEFAULT_CHECKPOINT_AT + batch);
    const file = await readFile(path, 'utf8');
    expect(file.startsWith(encodeDatabase(many(0, 2)).slice(0, -'\n  ]\n}\n'.length))).toBe(true);
    expect(file.split('\n')).toHaveLength(DEFAULT_CHECKPOINT_AT + 6);
  });

  it(
    'tells updated from unchanged puts of plants in the store file, its journal, a fresh read and a store laid ' +
      'out by hand',
    async () => {
      const path = await storePath();
      const plants: NewPlant[] = [
        { id: 1n, name: 'Fern', tag: 'herb' },
        { id: 2n, name: 'Fougère' },
        { id: 3n, name: 'Oak' },
        { id: 2n ** 53n + 1n, name: 'far' },
        { id: 12n, name: '🌱', tag: 'x' },
      ];
      // Folded into the store file by the next write (checkpointAt 0), which leaves one plant more in the journal.
      await withStore(path, (store) => store.addAll(plants));
      await withStore(path, (store) => store.addAll([{ id: 20n, name: 'Ivy' }]), { checkpointAt: 0 });
      expect((await readFile(`${path}.journal`, 'utf8')).split('\n')).toEqual(['{"id":20,"name":"Ivy"}', '']);
      const puts = (store: FileStore) =>
        store.putAll([
          ...plants.map((plant) => ({ plant })),
          { plant: { id: 1n, name: 'Fern' } },
          { plant: { id: 2n, name: 'Fougère', tag: 'é' } },
          { plant: { id: 3n, name: 'Oaks' } },
          { plant: { id: 2n ** 53n + 1n, name: 'Far' } },
          { plant: { id: 12n, name: '🌱', tag: 'y' } },
          { plant: { id: 20n, name: 'Ivy' } },
          { plant: { id: 21n, name: 'Ash' } },
        ]);
      const outcomes = [
        'unchanged',
        'unchanged',
        'unchanged',
        'unchanged',
        'unchanged',
        'updated',
        'updated',
        'updated',
        'updated',
        'updated',
        'unchanged',
        'created',
      ];
      // The same puts on a copy of the files, read anew, and on a store file laid out by hand.
      const copy = join(dirname(path), 'copy.json');
      writeFileSync(copy, await readFile(path));
      writeFileSync(`${copy}.journal`, await readFile(`${path}.journal`));
      const byHand = join(dirname(path), 'hand.json');
      writeFileSync(
        byHand,
        JSON.stringify(
          {
            plantStore: 1,
            plants: [...plants, { id: 20n, name: 'Ivy' }]
              .map((plant) => ({ ...plant, id: Number(plant.id) }))
              .reverse(),
          },
          null,
          1,
        ).replace(String(2 ** 53), String(2n ** 53n + 1n)),
      );
      for (const where of [path, copy, byHand]) expect(await withStore(where, puts)).toEqual(outcomes);
      for (const where of [path, copy, byHand]) {
        expect((await storedPlants(where)).get(1n)).toEqual({ id: 1n, name: 'Fern' });
        expect((await storedPlants(where)).get(12n)).toEqual({ id: 12n, name: '🌱', tag: 'y' });
      }
    },
  );

  it('drops a torn last line (a crash mid-append, never acknowledged) and appends after it', async () => {
    const path = await storePath();
    await writeFile(`${path}.journal`, '{"id":1,"name":"whole"}\n{"id":2,"na');
    await withStore(path, async (store) => {
      expect([...(await allPlants(store)).keys()]).toEqual([1n]);
      expect(await store.get(1n)).toEqual({ id: 1n, name: 'whole' });
      await store.addAll([{ id: 3n, name: 'next' }]);
      // Read from the journal where the torn line was: the new line, never the torn bytes.
      expect(await store.get(3n)).toEqual({ id: 3n, name: 'next' });
      expect(await store.list({ limit: 10 })).toEqual([
        { id: 1n, name: 'whole' },
        { id: 3n, name: 'next' },
      ]);
    });
    expect(await readFile(`${path}.journal`, 'utf8')).toBe('{"id":1,"name":"whole"}\n{"id":3,"name":"next"}\n');
  });

  it('shares one lock and one journal between a symlink to the store and the store itself', async () => {
    const dir = await tempDir();
    const path = join(dir, 'plants.json');
    await withStore(path, (store) => store.addAll([{ id: 1n, name: 'first' }]));
    await symlink(path, join(dir, 'link.json'));
    await withStore(join(dir, 'link.json'), async (throughLink) => {
      expect(await throughLink.addAll([{ id: 5n, name: 'through the link' }])).toEqual(['added']);
      expect(await withStore(path, (direct) => direct.addAll([{ id: 5n, name: 'direct' }]))).toEqual(['duplicate']);
    });
    expect((await readdir(dir)).sort()).toEqual(['link.json', 'plants.json.journal']);
    expect([...(await storedPlants(path)).values()]).toEqual([
      { id: 1n, name: 'first' },
      { id: 5n, name: 'through the link' },
    ]);
  });

  it('counts the journal in bytes on disk: a line that is not valid UTF-8 does not shift the next append', async () => {
    const path = await storePath();
    // 0xff is not UTF-8: decoded, it becomes U+FFFD, three bytes where the file has one.
    const first = Buffer.concat([Buffer.from('{"id":1,"name":"a'), Buffer.from([0xff]), Buffer.from('"}\n')]);
    await writeFile(`${path}.journal`, first);
    await withStore(path, (store) => store.addAll([{ id: 2n, name: 'b' }]));
    expect(await readFile(`${path}.journal`)).toEqual(Buffer.concat([first, Buffer.from('{"id":2,"name":"b"}\n')]));
    expect([...(await storedPlants(path)).keys()]).toEqual([1n, 2n]);
  });

  it('reads a journal of many blocks whole: lines across their edges, a line longer than one, torn tail', async () => {
    const path = await storePath();
    // ~2.5 MiB of lines of varying lengths, so that every block edge falls inside a line.
    const plants = Array.from({ length: 40_000 }, (_, i) => ({ id: BigInt(i), name: `p${'x'.repeat(i % 97)}` }));
    const lines = plants.map((plant) => `{"id":${plant.id},"name":"${plant.name}"}\n`).join('');
    await writeFile(`${path}.journal`, `${lines}{"id":40000,"name":"torn`);
    const reader = await FileStore.open(path);
    expect([...(await allPlants(reader)).values()]).toEqual(plants);
    // Appended by another process, read from where the reader stopped: the torn tail cut, the lines after it.
    await withStore(path, (writer) => writer.addAll(many(50_000, 60_000)), { checkpointAt: 1_000_000 });
    expect(existsSync(path)).toBe(false);
    const all = await allPlants(reader);
    expect(all.size).toBe(100_000);
    expect(all.get(109_999n)).toEqual({ id: 109_999n, name: 'p109999' });
    await reader.close();
    // A line longer than a block is read whole, to be named.
    await writeFile(`${path}.journal`, `{"id":1,"name":"a"}\n{"id":2,"name":"${'b'.repeat(3 * 1024 * 1024)}\n`);
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'store_corrupt',
      message: expect.stringContaining('line 2 is not JSON'),
    });
  });

  it(
    'reads a journal the store file already holds (a crash between a fold and removing the journal) as the same ' +
      'plants',
    async () => {
      const path = await storePath();
      await writeFile(
        path,
        encodeDatabase([
          { id: 1n, name: 'a' },
          { id: 3n, name: 'c' },
        ]),
      );
      await writeFile(`${path}.journal`, '{"id":1,"name":"a"}\n{"delete":3}\n{"id":2,"name":"b"}\n');
      expect([...(await storedPlants(path)).values()]).toEqual([
        { id: 1n, name: 'a' },
        { id: 2n, name: 'b' },
      ]);
    },
  );

  it('folds a journal beside a store laid out by hand into our layout, plant by plant', async () => {
    const path = await storePath();
    await writeFile(path, '{"plantStore":1,"plants":[{"name":"c","id":3}]}');
    await writeFile(`${path}.journal`, '{"id":1,"name":"a"}\n');
    await withStore(path, (store) => store.addAll([{ id: 2n, name: 'b' }]), { checkpointAt: 0 });
    expect(await readFile(path, 'utf8')).toBe(
      encodeDatabase([
        { id: 1n, name: 'a' },
        { id: 3n, name: 'c' },
      ]),
    );
    expect(await names(path)).toEqual(['a', 'b', 'c']);
  });

  it('refuses a journal with a whole line that is not a plant', async () => {
    const path = await storePath();
    await writeFile(`${path}.journal`, '{"id":1,"name":"a"}\n{"id":"2","name":"b"}\n');
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'store_corrupt',
      message: expect.stringContaining('line 2: invalid plant: id must be an integer'),
    });
  });

  it.each([
    [
      'above',
      '99999999999999999999',
      'line 2: the deleted id must be between -9223372036854775808 and 9223372036854775807, got 99999999999999999999',
    ],
    [
      'below',
      '-9223372036854775809',
      'line 2: the deleted id must be between -9223372036854775808 and 9223372036854775807, got -9223372036854775809',
    ],
  ])('refuses a journal line that deletes an id %s the int64 range, naming the line', async (_where, id, message) => {
    const path = await storePath();
    const journal = `{"id":1,"name":"a"}\n{"delete":${id}}\n`;
    await writeFile(`${path}.journal`, journal);
    await expect(FileStore.open(path)).rejects.toMatchObject({
      code: 'store_corrupt',
      message: expect.stringContaining(message),
    });
    expect(await readFile(`${path}.journal`, 'utf8')).toBe(journal);
  });

  it('reads the journal through the file system the store was given: a failure there is store_io', async () => {
    const path = await storePath();
    await withStore(path, (store) => store.addAll(many(1, 3)));
    const journalFds = new Set<number>();
    const fs: FileSystem = {
      ...NODE_FS,
      openSync: ((file: string, flags: string, mode?: number) => {
        const fd = NODE_FS.openSync(file, flags, mode);
        if (file === `${path}.journal`) journalFds.add(fd);
        return fd;
      }) as FileSystem['openSync'],
      readSync: ((fd: number, ...rest: unknown[]) => {
        if (journalFds.has(fd)) throw Object.assign(new Error('EIO: injected'), { code: 'EIO' });
        return (NODE_FS.readSync as (...args: unknown[]) => number)(fd, ...rest);
      }) as FileSystem['readSync'],
    };
    await expect(FileStore.open(path, { fs })).rejects.toMatchObject({
      code: 'store_io',
      message: expect.stringContaining('EIO'),
    });
  });

  it('reads a page of a few plants from a few KiB of the store file, not from all of it', async () => {
    const path = await storePath();
    await writeFile(path, encodeDatabase(many(1, 2000)));
    let counting = false;
    let bytes = 0;
    const fs: FileSystem = {
      ...NODE_FS,
      readSync: ((...args: unknown[]) => {
        const got = (NODE_FS.readSync as (...args: unknown[]) => number)(...args);
        if (counting) bytes += got;
        return got;
      }) as FileSystem['readSync'],
    };
    const store = await FileStore.open(path, { fs });
    counting = true;
    expect((await store.list({ limit: 10 })).map((plant) => plant.id)).toEqual(many(1, 10).map((plant) => plant.id));
    expect(bytes).toBeLessThanOrEqual(8 * 1024);
    await store.close();
  });

  it('reads what another process folded and appended meanwhile, only its appends when that is all it did', async () => {
    const path = await storePath();
    const reader = await FileStore.open(path);
    await withStore(path, (writer) => writer.addAll(many(1, 3)));
    expect([...(await allPlants(reader)).keys()]).toEqual([1n, 2n, 3n]);
    await withStore(path, (writer) => writer.addAll(many(4, 1)), { checkpointAt: 0 });
    await withStore(path, (writer) => writer.deleteAll([2n]));
    expect([...(await allPlants(reader)).keys()]).toEqual([1n, 3n, 4n]);
    await reader.close();
  });
});

describe('reading while another process folds', () => {
  /**
   * A store of a journal alone, and a reader of it whose first opening of the journal after it
   * was opened (and read the journal), to read a line it indexed, comes right after another
   * process folded it: the store file replaced with every plant, the journal removed.
   */
  async function foldedUnderTheReader(failJournal = false) {
    const path = await storePath();
    await withStore(path, (writer) => writer.addAll(many(1, 3)));
    let opened = false;
    let folded = false;
    const fs: FileSystem = {
      ...NODE_FS,
      openSync: ((file: string, flags: string, mode?: number) => {
        if (opened && flags === 'r' && file.endsWith('.journal')) {
          if (failJournal) throw Object.assign(new Error('EIO: injected'), { code: 'EIO' });
          if (!folded) {
            folded = true;
            writeFileSync(`${path}.other.tmp`, encodeDatabase(many(1, 3)));
            renameSync(`${path}.other.tmp`, path);
            unlinkSync(`${path}.journal`);
          }
        }
        return NODE_FS.openSync(file, flags, mode);
      }) as FileSystem['openSync'],
    };
    const reader = await FileStore.open(path, { fs });
    opened = true;
    return { reader, folded: () => folded };
  }

  it.each([
    ['a page', (store: FileStore) => store.list({ limit: 10 }), many(1, 3)],
    ['a plant by id', (store: FileStore) => store.get(2n), many(2, 1)[0]],
  ])(
    'reads %s again from the files as they now are, where the journal it indexed is gone',
    async (_what, read, expected) => {
      const { reader, folded } = await foldedUnderTheReader();
      expect(await read(reader)).toEqual(expected);
      expect(folded()).toBe(true);
      await reader.close();
    },
  );

  it('reads again, not as corrupt, a journal whose torn tail another process cut, rewrote as it was read', async () => {
    const path = await storePath();
    const journalPath = `${path}.journal`;
    // Whole lines ending 8 bytes short of the first 1 MiB block read, and a torn tail across its edge.
    const lines: string[] = [];
    let whole = 0;
    for (let id = 1; whole < 1024 * 1024 - 8; id += 1) {
      const rest = 1024 * 1024 - 8 - whole;
      const bare = `{"id":${id},"name":""}\n`.length;
      const name = 'x'.repeat(rest - bare < 1_100 ? rest - bare : 900);
      lines.push(`{"id":${id},"name":"${name}"}\n`);
      whole += lines[lines.length - 1]!.length;
    }
    expect(whole).toBe(1024 * 1024 - 8);
    await writeFile(journalPath, `${lines.join('')}{"id":7,"name":"torn`);
    // The other process appends where the torn tail started: its line's bytes from the block's edge
    // on follow the torn tail's first 8 ({"id":7,) in the reader's block.
    const appended = '{"id":123456789,"name":"new"}\n';
    const journalFds = new Set<number>();
    let wroteOver = false;
    const fs: FileSystem = {
      ...NODE_FS,
      openSync: ((file: string, flags: string, mode?: number) => {
        const fd = NODE_FS.openSync(file, flags, mode);
        if (file === journalPath && flags === 'r') journalFds.add(fd);
        return fd;
      }) as FileSystem['openSync'],
      readSync: ((fd: number, ...rest: unknown[]) => {
        const got = (NODE_FS.readSync as (...args: unknown[]) => number)(fd, ...rest);
        if (journalFds.has(fd) && !wroteOver) {
          wroteOver = true;
          truncateSync(journalPath, whole);
          appendFileSync(journalPath, appended);
        }
        return got;
      }) as FileSystem['readSync'],
    };
    const reader = await FileStore.open(path, { fs });
    expect(wroteOver).toBe(true);
    const all = await allPlants(reader);
    expect(all.size).toBe(lines.length + 1);
    expect(all.get(123456789n)).toEqual({ id: 123456789n, name: 'new' });
    await reader.close();
  });

  it('fails a read on files that did not change as it read, without trying again and again', async () => {
    const { reader } = await foldedUnderTheReader(true);
    await expect(reader.list({ limit: 10 })).rejects.toMatchObject({
      code: 'store_io',
      message: expect.stringContaining('EIO'),
    });
    await reader.close();
  });
});

describe('deleting, and reading by id and by page', () => {
  it('deletes durably, says which ids were there, and lets a deleted id be created again', async () => {
    const path = await storePath();
    await withStore(path, async (store) => {
      await store.addAll(many(1, 3));
      expect(await store.deleteAll([2n, 9n, 2n])).toEqual(['deleted', 'absent', 'absent']);
      expect(await store.get(2n)).toBeUndefined();
      expect(await store.addAll([{ id: 2n, name: 'again' }])).toEqual(['added']);
    });
    expect(await readFile(`${path}.journal`, 'utf8')).toBe(
      '{"id":1,"name":"p1"}\n{"id":2,"name":"p2"}\n{"id":3,"name":"p3"}\n{"delete":2}\n{"id":2,"name":"again"}\n',
    );
    expect(await names(path)).toEqual(['p1', 'again', 'p3']);
  });

  it('folds a store with deletions into a file without them', async () => {
    const path = await storePath();
    await withStore(path, async (store) => {
      await store.addAll(many(1, 4));
      await store.deleteAll([1n, 3n]);
    });
    await withStore(path, (store) => store.addAll([{ id: 5n, name: 'p5' }]), { checkpointAt: 0 });
    expect(await readFile(path, 'utf8')).toBe(
      encodeDatabase([
        { id: 2n, name: 'p2' },
        { id: 4n, name: 'p4' },
      ]),
    );
    await rm(`${path}.journal`);
    expect(await names(path)).toEqual(['p2', 'p4']);
  });

  it('gets a plant by id, from the store file or the journal', async () => {
    const path = await storePath();
    await withStore(path, (store) => store.addAll([{ id: 7n, name: 'filed', tag: 't' }]), { checkpointAt: 0 });
    await withStore(path, async (store) => {
      await store.addAll([{ id: 8n, name: 'journaled' }]);
      expect(await store.get(7n)).toEqual({ id: 7n, name: 'filed', tag: 't' });
      expect(await store.get(8n)).toEqual({ id: 8n, name: 'journaled' });
      expect(await store.get(9n)).toBeUndefined();
    });
  });

  it('lists pages in id order across store file and journal, after an id, with a tag', async () => {
    const path = await storePath();
    const tagged = (id: number, tag?: string): NewPlant =>
      tag === undefined ? { id: BigInt(id), name: `p${id}` } : { id: BigInt(id), name: `p${id}`, tag };
    await withStore(path, (store) => store.addAll([tagged(10, 'x'), tagged(30), tagged(50, 'x')]), { checkpointAt: 0 });
    await withStore(path, (store) => store.addAll([tagged(-5)]), { checkpointAt: 0 });
    await withStore(path, async (store) => {
      await store.addAll([tagged(20, 'x'), tagged(40)]);
      await store.deleteAll([30n]);
      const ids = (page: NewPlant[]) => page.map((plant) => plant.id);
      expect(ids(await store.list({ limit: 100 }))).toEqual([-5n, 10n, 20n, 40n, 50n]);
      expect(ids(await store.list({ limit: 2 }))).toEqual([-5n, 10n]);
      expect(ids(await store.list({ limit: 2, after: 10n }))).toEqual([20n, 40n]);
      expect(ids(await store.list({ limit: 2, after: 45n }))).toEqual([50n]);
      expect(ids(await store.list({ limit: 100, tag: 'x' }))).toEqual([10n, 20n, 50n]);
      expect(ids(await store.list({ limit: 100, after: 50n }))).toEqual([]);
    });
  });
});
