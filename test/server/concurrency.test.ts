import { join } from 'node:path';
import { Pool } from 'undici';
import { tempDir } from '../helpers/temp.js';
import { describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import type { NewPlant } from '../../src/core/schemas.js';
import type { AddOutcome } from '../../src/core/store.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { startServer, type RunningServer } from './support/server.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { DelegatingStore } from '../helpers/stores.js';

/** Counts the inner writes, to see that requests arriving together share one. */
class CountingStore extends DelegatingStore {
  calls = 0;
  override addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    this.calls += 1;
    return this.inner.addAll(plants);
  }
}

async function sameIdBurst(server: RunningServer, count: number): Promise<number[]> {
  const pool = new Pool(server.url, { connections: count });
  try {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        server.send({ body: `{"id": 77, "name": "racer ${index}"}`, dispatcher: pool }),
      ),
    );
    for (const answer of answers.filter((one) => one.status !== 200)) {
      expect(JSON.parse(answer.body)).toMatchObject({ error: ERROR_NUMBERS.duplicate_id });
    }
    return answers.map((answer) => answer.status);
  } finally {
    await pool.close();
  }
}

describe('concurrent creates', () => {
  it('200 concurrent creates of one id on the memory store: exactly one 200, the rest 400 duplicate', async () => {
    const server = await startServer(new MemoryStore());
    try {
      const statuses = await sameIdBurst(server, 200);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 400)).toHaveLength(199);
    } finally {
      await server.stop();
    }
  });

  it('200 concurrent creates of one id on the batched file store: exactly one 200, one plant on disk', async () => {
    const path = join(await tempDir(), 'plants.json');
    const server = await startServer(new BatchingStore(await FileStore.open(path)));
    try {
      const statuses = await sameIdBurst(server, 200);
      expect(statuses.filter((status) => status === 200)).toHaveLength(1);
      expect(statuses.filter((status) => status === 400)).toHaveLength(199);
      expect((await storedPlants(path)).size).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('2,000 distinct creates over 50 keep-alive connections all reach the file, in far fewer writes', async () => {
    const path = join(await tempDir(), 'plants.json');
    const counting = new CountingStore(await FileStore.open(path));
    const store = new BatchingStore(counting);
    const server = await startServer(store);
    const pool = new Pool(server.url, { connections: 50 });
    try {
      const total = 2_000;
      const answers = await Promise.all(
        Array.from({ length: total }, (_, index) =>
          server.send({ body: `{"id": ${index + 1}, "name": "plant ${index + 1}", "tag": "t"}`, dispatcher: pool }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(total);
      await pool.close();
      await server.stop();
      await store.drain();
      // A fresh read of the file, as a restarted server would see it.
      const stored = await storedPlants(path);
      expect(stored.size).toBe(total);
      for (let id = 1; id <= total; id++) expect(stored.get(BigInt(id))?.name).toBe(`plant ${id}`);
      expect(counting.calls).toBeLessThan(total / 5);
    } finally {
      await pool.close().catch(() => undefined);
      await server.stop();
    }
  }, 20_000);
});
