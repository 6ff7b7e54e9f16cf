import { mkdirSync, rmdirSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';

/** A create through `url`: its status and Retry-After. */
async function create(
  url: string,
  token: string,
  id: number,
): Promise<{ status: number; retryAfter: string | null; body: string }> {
  const answer = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: `{"id":${id},"name":"p${id}"}`,
  });
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: await answer.text() };
}

describe('plants serve waits on its store no longer than --store-wait (issue 29, part 2)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it(
    'answers 503 with Retry-After while the table is locked, stores none of those, and recovers when the lock ' +
      'goes',
    async () => {
      const server = await startServer(await tempDir(), ['--database', db.url, '--store-wait', '1']);
      const locker = new pg.Client({ connectionString: db.url });
      await locker.connect();
      try {
        expect((await create(server.url, server.token, 1)).status).toBe(200);
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE plants IN ACCESS EXCLUSIVE MODE');
        const refused = await Promise.all([2, 3, 4, 5].map((id) => create(server.url, server.token, id)));
        for (const answer of refused) {
          expect(answer).toMatchObject({ status: 503, retryAfter: '1' });
          expect(JSON.parse(answer.body)).toMatchObject({ error: expect.any(Number), message: expect.any(String) });
        }
        await locker.query('ROLLBACK');
        // None of the refused was stored: each, sent again, is created once; once more, a duplicate.
        for (const id of [2, 3, 4, 5]) expect((await create(server.url, server.token, id)).status).toBe(200);
        expect((await create(server.url, server.token, 2)).status).toBe(400);
        expect((await db.query<{ n: string }>('SELECT count(*)::text AS n FROM plants'))[0]?.n).toBe('5');
      } finally {
        await locker.end();
        await server.stop();
      }
    },
  );

  it('on a file store, a lock held by another process is waited for as long, then 503', async () => {
    const home = await tempDir();
    const store = `${home}/plants.json`;
    const server = await startServer(home, ['--store', store, '--store-wait', '1']);
    try {
      expect((await create(server.url, server.token, 1)).status).toBe(200);
      // serve keeps its lock until it pauses: wait for it to be free, then hold it, fresh.
      for (let tries = 0; ; tries += 1) {
        try {
          mkdirSync(`${store}.lock`);
          break;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 200) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      try {
        expect(await create(server.url, server.token, 2)).toMatchObject({ status: 503, retryAfter: '1' });
      } finally {
        rmdirSync(`${store}.lock`);
      }
      expect((await create(server.url, server.token, 2)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses a wait that is no number of seconds in range (exit 2)', async () => {
    const home = await tempDir();
    await expect(startServer(home, ['--store-wait', '0'])).rejects.toThrow(
      /--store-wait must be a number of seconds from 0\.001 to 3600 \(e\.g\. 10 or 0\.5\), got "0"/,
    );
  });
});
