import { join } from 'node:path';
import { Pool } from 'undici';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import type { NewPlant } from '../../src/core/schemas.js';
import type { PlantStore } from '../../src/core/store.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { startServer } from '../server/support/server.js';

// Creates and deletes of one id racing through the service (in-process, on port 0), on the file
// store and on PostgreSQL; the reads and deletes themselves: test/server/read-delete.test.ts.

/** A store to race on, behind the group commit plants serve puts in front of it, and how to read it afresh. */
interface RaceStore {
  open(): Promise<PlantStore>;
  /** The plant as stored, read after the server has stopped by a store opened anew (the file, the table). */
  storedPlant(id: bigint): Promise<NewPlant | undefined>;
}

/** The answer a request implies of the plant's state: a transition, or the state it saw. */
type Implied = 'created' | 'deleted' | 'was present' | 'was absent';

function implied(kind: 'POST' | 'DELETE', answer: { status: number; body: string }): Implied {
  if (kind === 'POST' && answer.status === 200) return 'created';
  if (kind === 'DELETE' && answer.status === 204) return 'deleted';
  if (kind === 'POST' && answer.status === 400 && JSON.parse(answer.body).error === ERROR_NUMBERS.duplicate_id)
    return 'was present';
  if (kind === 'DELETE' && answer.status === 404) return 'was absent';
  throw new Error(`${kind} answered ${answer.status} ${answer.body}`);
}

/** A little generator of the same "random" mix of requests every run (a failure can be run again). */
function mixOf(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe.each([
  [
    'the file store',
    async (): Promise<RaceStore> => {
      const path = join(await tempDir(), 'plants.json');
      return {
        open: async () => new BatchingStore(await FileStore.open(path)),
        storedPlant: async (id) => (await storedPlants(path)).get(id),
      };
    },
  ],
  [
    'the PostgreSQL store',
    async (): Promise<RaceStore> => {
      const db = await createTestDatabase();
      onTestFinished(() => db.drop());
      const stored = async (id: bigint) => {
        const store = await PostgresStore.open(db.url);
        try {
          return await store.get(id);
        } finally {
          await store.close();
        }
      };
      return { open: async () => new BatchingStore(await PostgresStore.open(db.url), 2), storedPlant: stored };
    },
  ],
])('creates and deletes of one id by many clients at once, on %s', (_name, makeStore) => {
  it('are acknowledged in turns from the state before, leave the plant as answered, served and stored', async () => {
    const race = await makeStore();
    const server = await startServer(await race.open());
    const pool = new Pool(server.url, { connections: 40 });
    const random = mixOf(77);
    // What the answers so far imply: the plant is there or not, and with which name.
    let present = false;
    let name: string | undefined;
    let transitions = 0;
    try {
      for (let round = 0; round < 30; round += 1) {
        // A mix that leans to creates in some rounds and to deletes in others.
        const createShare = random();
        const requests = Array.from({ length: 40 }, (_, i) =>
          random() < createShare ? { kind: 'POST' as const, name: `racer ${round}.${i}` } : { kind: 'DELETE' as const },
        );
        const answers = await Promise.all(
          requests.map((request) =>
            request.kind === 'POST'
              ? server.send({ body: `{"id":77,"name":"${request.name}"}`, dispatcher: pool })
              : server.send({ method: 'DELETE', path: '/plants/77', dispatcher: pool }),
          ),
        );
        const said = answers.map((answer, i) => implied((requests[i] as { kind: 'POST' | 'DELETE' }).kind, answer));
        const created = said.filter((what) => what === 'created').length;
        const deleted = said.filter((what) => what === 'deleted').length;
        transitions += created + deleted;
        // Acknowledged transitions alternate from the state the round began in (absent: created,
        // deleted, created, …; present: deleted, created, …), so they number the same, or one
        // more of the first kind.
        const surplus = present ? deleted - created : created - deleted;
        expect(
          surplus === 0 || surplus === 1,
          `round ${round}: from ${present ? 'present' : 'absent'}, ${created} created and ${deleted} deleted`,
        ).toBe(true);
        // A duplicate saw the plant there, a 404 saw it gone: so it was, at some moment of the round.
        if (said.includes('was present'))
          expect(present || created > 0, `round ${round}: a 400 duplicate of an id never there`).toBe(true);
        if (said.includes('was absent'))
          expect(!present || deleted > 0, `round ${round}: a 404 for an id never gone`).toBe(true);
        present = present ? created === deleted : created > deleted;
        const got = await server.send({ method: 'GET', path: '/plants/77' });
        expect(got.status, `round ${round}: GET where the answers say the plant is ${present ? 'there' : 'gone'}`).toBe(
          present ? 200 : 404,
        );
        if (present) {
          const served = (JSON.parse(got.body) as { name: string }).name;
          // There at the end after a create of this round: the last transition was one of them.
          if (created > 0)
            expect(
              requests
                .filter((request, i) => said[i] === 'created')
                .map((request) => (request as { name: string }).name),
            ).toContain(served);
          else expect(served).toBe(name);
          name = served;
        } else name = undefined;
        // Every answer was given once its change was durable: a store read afresh holds it already.
        expect(await race.storedPlant(77n), `round ${round}: the store read afresh`).toEqual(
          present ? { id: 77n, name } : undefined,
        );
      }
    } finally {
      await pool.close();
      await server.stop();
    }
    // The clients did race: the plant came and went many times.
    expect(transitions).toBeGreaterThan(100);
    // What the store holds once the server is gone, read afresh: what the answers implied.
    const stored = await race.storedPlant(77n);
    expect(stored).toEqual(present ? { id: 77n, name } : undefined);
  });
});
