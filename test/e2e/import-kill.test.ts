import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { finished, isolatedEnv, runPlants, startPlants } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';
import { storedPlants } from '../helpers/stored-plants.js';

describe('plants import --local killed at any moment', () => {
  it('leaves a whole store, and a re-run with --on-conflict skip completes it: exactly 50,000', async () => {
    const home = await tempDir();
    const store = join(home, 'plants.json');
    const input = join(home, 'plants.ndjson');
    const rows = 50_000;
    await writeFile(input, Array.from({ length: rows }, (_, i) => `{"id":${i},"name":"plant ${i}"}`).join('\n'));
    const env = isolatedEnv(home, { PLANTS_STORE: store });
    // How long a whole import takes here, into a scratch store: the kills are spread over it.
    const started = Date.now();
    expect(
      (await runPlants(['import', input, '--local'], isolatedEnv(home, { PLANTS_STORE: join(home, 'scratch.json') })))
        .code,
    ).toBe(0);
    const duration = Date.now() - started;
    const sizes: number[] = [];
    for (const fraction of [0.3, 0.5, 0.7, 0.8, 0.9, 0.95]) {
      const delayMs = duration * fraction;
      const child = startPlants(['import', input, '--local', '--on-conflict', 'skip'], env);
      const done = finished(child);
      setTimeout(() => child.kill('SIGKILL'), delayMs);
      await done;
      sizes.push((await storedPlants(store)).size); // throws if the store is not whole
      await rm(`${store}.lock`, { recursive: true, force: true });
    }
    // Kills landed at different points: the store grew in whole batches, never shrank.
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(sizes.some((size) => size < rows)).toBe(true);
    const rerun = await runPlants(['import', input, '--local', '--on-conflict', 'skip', '--json'], env);
    expect(rerun.code).toBe(0);
    const { counts } = JSON.parse(rerun.stdout);
    expect(counts.created + counts.skipped).toBe(rows);
    expect(counts.skipped).toBe(sizes.at(-1));
    const plants = await storedPlants(store);
    expect(plants.size).toBe(rows);
    expect(plants.get(49_999n)).toEqual({ id: 49_999n, name: 'plant 49999' });
  });
});
