import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { lockStore } from '../../src/store/file/store-lock.js';
import { tempDir } from '../helpers/temp.js';
import { testContext } from '../helpers/test-context.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * node:fs, but the store file at `path` looks changed at every look (another process folding it
 * again and again): each read of it is spoiled, and after three, a reader reads it under the lock.
 * `lockTries` counts the tries to make the lock.
 */
function everChangingStore(path: string): FileSystem & { lockTries: number } {
  let looks = 0n;
  const fs = {
    ...NODE_FS,
    lockTries: 0,
    statSync: ((target: string, options?: { bigint?: boolean }) => {
      const info = NODE_FS.statSync(target, options as never) as unknown as { mtimeNs?: bigint };
      if (target !== path || options?.bigint !== true) return info;
      looks += 1n;
      return Object.create(info, { mtimeNs: { value: (info.mtimeNs as bigint) + looks } });
    }) as FileSystem['statSync'],
    mkdirSync: ((target: string, options?: never) => {
      if (target === `${path}.lock`) fs.lockTries += 1;
      return NODE_FS.mkdirSync(target, options);
    }) as FileSystem['mkdirSync'],
  };
  return fs;
}

describe('plants import --local, stopped while it opens the store', () => {
  it(
    'ends as interrupted, with its summary, at a second signal during the wait for the lock to read the store ' +
      '(exit 143)',
    async () => {
      const dir = await tempDir();
      const path = join(dir, 'plants.json');
      // A store file, not a journal alone: what the reads look at.
      const store = await FileStore.open(path, { checkpointAt: 1 });
      await store.addAll([{ id: 1n, name: 'Fern' }]);
      await store.addAll([{ id: 3n, name: 'Ivy' }]);
      await store.close();
      expect(NODE_FS.statSync(path).isFile()).toBe(true);
      // Another process's lock, kept fresh: the read under the lock waits for it (up to 30 s).
      const lock = await lockStore(path, 1_000);
      try {
        const fs = everChangingStore(path);
        const t = await testContext({ fs, stdin: '{"id":2,"name":"Oak"}\n' });
        const exit = t.run('import', '-', '--format', 'ndjson', '--local', '--store', path);
        await waitFor('the wait for the lock', () => fs.lockTries > 0);
        t.stop('SIGTERM');
        t.stop('SIGTERM');
        expect(await exit).toBe(143);
        expect(t.stderr()).toContain(
          'plants: SIGTERM again: stopping at once, a write under way is finished (a third time kills it)\n',
        );
        expect(t.stderr()).toMatch(
          /^Imported 0 rows into \S+plants\.json in [\d.]+s: 0 created, 0 skipped, 0 failed$/m,
        );
        expect(t.stderr()).toContain('interrupted: SIGTERM: the input was read no further than the 0 rows above\n');
        expect(t.stderr()).not.toContain('error:');
        // Nothing written, and the other process's lock is still its own.
        expect(() => lock.confirm()).not.toThrow();
      } finally {
        lock.release();
      }
    },
  );
});
