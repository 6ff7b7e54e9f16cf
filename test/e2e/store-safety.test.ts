import { watch } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { finished, isolatedEnv, runPlants, startPlants } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';
import { lockStore } from '../../src/store/file/store-lock.js';
import { storedPlants } from '../helpers/stored-plants.js';

async function plantsIn(path: string): Promise<Map<bigint, NewPlant>> {
  return storedPlants(path);
}

describe('the local store under concurrent and killed writers', () => {
  it('keeps all 50 plants of 50 plants create --local processes started at once', async () => {
    const home = await tempDir();
    const store = join(home, 'plants.json');
    const env = isolatedEnv(home, { PLANTS_STORE: store });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        runPlants(['create', '--local', '--id', String(9223372036854775807n - BigInt(i)), '--name', `p${i}`], env),
      ),
    );
    expect(results.filter((result) => result.code !== 0)).toEqual([]);
    const plants = await plantsIn(store);
    expect(plants.size).toBe(50);
    expect(plants.get(9223372036854775807n - 49n)?.name).toBe('p49');
  });

  it('says why it waits for a lock another process holds, and creates the plant once it is free', async () => {
    const home = await tempDir();
    const store = join(home, 'plants.json');
    const lock = await lockStore(store, 1_000);
    const release = () => lock.release();
    const child = startPlants(
      ['create', '--local', '--id', '1', '--name', 'Fern'],
      isolatedEnv(home, { PLANTS_STORE: store }),
    );
    const result = finished(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor('the notice', () => stderr.includes('waiting for'));
    expect(stderr).toBe(
      `plants: waiting for ${store}: another plants process holds its lock (a killed one, for 12 s at most)\n`,
    );
    await release();
    const { code, stdout } = await result;
    expect(code).toBe(0);
    expect(stdout).toBe(`Created plant 1 "Fern" in ${store}\n`);
    expect((await plantsIn(store)).size).toBe(1);
  });

  it('lets exactly one of 10 concurrent creates of one id win; the rest are refused (exit 1)', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => runPlants(['create', '--local', '--id', '7', '--name', `p${i}`], env)),
    );
    expect(results.map((result) => result.code).sort()).toEqual([0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect((await plantsIn(join(home, 'plants.json'))).size).toBe(1);
  });

  it('leaves a whole store when a writer is killed at any moment', async () => {
    const home = await tempDir();
    const store = join(home, 'plants.json');
    const env = isolatedEnv(home, { PLANTS_STORE: store });
    // A store big enough that reading and rewriting it takes a while, so kills land mid-write.
    const base = Array.from({ length: 100_000 }, (_, i) => ({ id: BigInt(i), name: `plant ${i}`, tag: 'seed' }));
    await writeFile(store, encodeDatabase(base));
    const started = Date.now();
    expect((await runPlants(['create', '--local', '--id', '-1', '--name', 'timed'], env)).code).toBe(0);
    const duration = Date.now() - started;
    let expected = base.length + 1;
    let killed = 0;
    for (let step = 1; step <= 10; step += 1) {
      const child = startPlants(['create', '--local', '--id', String(-1 - step), '--name', `kill ${step}`], env);
      const result = finished(child);
      // Half the kills land at points spread over a run; half the moment the writer touches a file
      // other than its lock, i.e. in the middle of the write itself.
      const watcher = watch(home, (_event, file) => {
        if (step % 2 === 0 && file !== null && !file.endsWith('.lock')) child.kill('SIGKILL');
      });
      if (step % 2 === 1) setTimeout(() => child.kill('SIGKILL'), (duration * step) / 10);
      const { code, signal } = await result;
      watcher.close();
      if (signal === 'SIGKILL') killed += 1;
      const plants = await plantsIn(store); // throws if the file is not whole
      if (code === 0) expected += 1;
      // A writer killed after its rename has stored its plant, whole; one killed before has not.
      else if (plants.size === expected + 1) expected += 1;
      expect(plants.size).toBe(expected);
      // The killed writer cannot remove its lock; remove it as a user would once it is gone.
      await rm(`${store}.lock`, { recursive: true, force: true });
    }
    expect(killed).toBeGreaterThanOrEqual(5);
    expect((await runPlants(['create', '--local', '--id', '-100', '--name', 'after'], env)).code).toBe(0);
    expect((await plantsIn(store)).size).toBe(expected + 1);
  });
});
