import { Pool, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  servers = [];
});

let schemas = 0;
/** The test database, with a schema of its own on the search_path: a store with no table yet. */
async function freshDatabase(port?: number): Promise<{ url: string; schema: string }> {
  const schema = `serve${++schemas}`;
  await db.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(db.url);
  url.searchParams.set('options', `-c search_path=${schema}`);
  if (port !== undefined) url.port = String(port);
  return { url: url.href, schema };
}

async function serveOn(url: string, extraArgs: string[] = []): Promise<RunningServer> {
  const server = await startServer(await tempDir(), ['--database', url, ...extraArgs]);
  servers.push(server);
  return server;
}

function send(base: string | Pool, token: string, method: string, path: string, body?: string) {
  const options = {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  } as const;
  return typeof base === 'string' ? request(`${base}${path}`, options) : base.request({ ...options, path });
}

async function status(
  base: string | Pool,
  token: string,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; body: string }> {
  const answer = await send(base, token, method, path, body);
  return { status: answer.statusCode, body: await answer.body.text() };
}

describe('plants serve --database', () => {
  it('serves the contract and its extensions from PostgreSQL, exactly, with the password masked', async () => {
    const { url } = await freshDatabase();
    const withPassword = new URL(url);
    withPassword.password = 'hunter2-db-secret';
    const server = await serveOn(withPassword.href, ['--pool', '3']);
    const max = '9223372036854775807';
    expect(
      await status(server.url, server.token, 'POST', '/plants', `{"id":${max},"name":"Fern\\u0000","tag":"herb"}`),
    ).toEqual({ status: 200, body: '{"name":"Fern\\u0000","tag":"herb"}' });
    expect((await status(server.url, server.token, 'POST', '/plants', `{"id":${max},"name":"again"}`)).status).toBe(
      400,
    );
    expect(
      await status(server.url, server.token, 'POST', '/plants', '{"id":-9223372036854775808,"name":"Min"}'),
    ).toEqual({ status: 200, body: '{"name":"Min"}' });
    expect(await status(server.url, server.token, 'GET', '/plants?tag=herb')).toEqual({
      status: 200,
      body: `[{"id":${max},"name":"Fern\\u0000","tag":"herb"}]`,
    });
    expect((await status(server.url, server.token, 'GET', `/plants/${max}`)).body).toBe(
      `{"id":${max},"name":"Fern\\u0000","tag":"herb"}`,
    );
    expect((await status(server.url, server.token, 'DELETE', `/plants/${max}`)).status).toBe(204);
    expect((await status(server.url, server.token, 'GET', `/plants/${max}`)).status).toBe(404);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.log()).toContain(':***@127.0.0.1');
    expect(server.log()).not.toContain('hunter2');
  });

  it('takes PLANTS_DATABASE_URL over PLANTS_STORE, --store over both; refuses a URL not postgresql://', async () => {
    const { url, schema } = await freshDatabase();
    const home = await tempDir();
    const env = { PLANTS_DATABASE_URL: url, PLANTS_STORE: `${home}/env.json` };
    const fromEnv = await startServer(home, [], env);
    servers.push(fromEnv);
    expect((await status(fromEnv.url, fromEnv.token, 'POST', '/plants', '{"id":1,"name":"Fern"}')).status).toBe(200);
    expect(await db.query(`SELECT id::text, name FROM ${schema}.plants`)).toEqual([{ id: '1', name: 'Fern' }]);
    await waitFor('the listening line', () => fromEnv.log().includes('listening'));
    expect(fromEnv.log()).toContain(`store postgresql://postgres@${new URL(url).host}/`);

    const fromFlag = await startServer(home, ['--store', `${home}/flag.json`], env);
    servers.push(fromFlag);
    await waitFor('the listening line', () => fromFlag.log().includes('listening'));
    expect(fromFlag.log()).toContain(`store ${home}/flag.json`);

    const notPostgres = await runPlants(['serve', '--port', '0', '--database', 'mysql://x'], isolatedEnv(home));
    expect(notPostgres.code).toBe(2);
    expect(notPostgres.stderr).toContain('--database must be a postgresql:// (or postgres://) URL');
    const both = await runPlants(['serve', '--port', '0', '--database', url, '--store', 'x.json'], isolatedEnv(home));
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--store and --database name two stores: give one');
  });

  it('refuses a database whose plants table is not ours (exit 4), and one that does not answer', async () => {
    const { url, schema } = await freshDatabase();
    await db.query(
      `CREATE TABLE ${schema}.plants (id int, name text); INSERT INTO ${schema}.plants VALUES (1, 'theirs')`,
    );
    const home = await tempDir();
    const foreign = await runPlants(
      ['serve', '--port', '0', '--token', 'tok-0123456789abcdef', '--database', url],
      isolatedEnv(home),
    );
    expect(foreign.code).toBe(4);
    expect(foreign.stderr).toContain('has a table "plants" that plants did not create');
    expect(foreign.stdout).toBe('');
    expect(await db.query(`SELECT * FROM ${schema}.plants`)).toEqual([{ id: 1, name: 'theirs' }]);

    const proxy = await startTcpProxy('127.0.0.1', 1);
    proxy.cut();
    const down = await runPlants(
      [
        'serve',
        '--port',
        '0',
        '--token',
        'tok-0123456789abcdef',
        '--database',
        `postgresql://u:pw-secret@127.0.0.1:${proxy.port}/x`,
      ],
      isolatedEnv(home),
    );
    await proxy.close();
    expect(down.code).toBe(4);
    expect(down.stderr).toContain(`the database postgresql://u:***@127.0.0.1:${proxy.port}/x failed`);
    expect(down.stderr).not.toContain('pw-secret');
  });
});

describe('plants serve --database --pool', () => {
  it('opens no more connections to PostgreSQL than --pool, and as many as the load needs up to it', async () => {
    const { url } = await freshDatabase();
    const database = new URL(db.url).pathname.slice(1);
    /** The most connections of plants serve to the test database seen while 32 clients create and list. */
    const peak = async (poolSize: number): Promise<number> => {
      const server = await serveOn(url, ['--pool', String(poolSize)]);
      const client = new Pool(server.url, { connections: 32 });
      let most = 0;
      let loading = true;
      const sampling = (async () => {
        while (loading) {
          const [row] = await db.query<{ n: string }>(
            "SELECT count(*)::text AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'plants serve'",
            [database],
          );
          most = Math.max(most, Number(row?.n));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      let next = poolSize * 1_000_000;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          for (let i = 0; i < 40; i += 1) {
            const id = next++;
            expect((await status(client, server.token, 'POST', '/plants', `{"id":${id},"name":"p${id}"}`)).status).toBe(
              200,
            );
            expect((await status(client, server.token, 'GET', '/plants?limit=1000')).status).toBe(200);
          }
        }),
      );
      loading = false;
      await sampling;
      await client.close();
      await server.stop();
      return most;
    };
    const capped = await peak(2);
    expect(capped).toBeGreaterThan(0);
    expect(capped).toBeLessThanOrEqual(2);
    expect(await peak(8)).toBeGreaterThan(2);
  });
});

describe('several plants serve instances on one database', () => {
  it('give exactly one 200 for 200 concurrent creates of one id spread over them', async () => {
    const { url, schema } = await freshDatabase();
    const [a, b] = [await serveOn(url), await serveOn(url)] as [RunningServer, RunningServer];
    const pools = [new Pool(a.url, { connections: 20 }), new Pool(b.url, { connections: 20 })];
    try {
      const answers = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          status(pools[i % 2] as Pool, a.token, 'POST', '/plants', `{"id":77,"name":"from ${i}"}`),
        ),
      );
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 400 && JSON.parse(answer.body).error === 1002)).toHaveLength(
        199,
      );
      const winner = answers.find((answer) => answer.status === 200)?.body;
      const [row] = await db.query<{ name: string }>(`SELECT name FROM ${schema}.plants WHERE id = 77`);
      expect(winner).toBe(JSON.stringify({ name: row?.name }));
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
  });

  it('lose no acknowledged plant when one is SIGKILLed mid-burst, and the other keeps serving', async () => {
    const { url, schema } = await freshDatabase();
    const [a, b] = [await serveOn(url), await serveOn(url)] as [RunningServer, RunningServer];
    const pools = [new Pool(a.url, { connections: 25 }), new Pool(b.url, { connections: 25 })];
    const acknowledged: number[] = [];
    const answeredBy: [number, number] = [0, 0];
    let killNow = () => undefined as void;
    const dueToKill = new Promise<void>((resolve) => (killNow = resolve));
    const burst = Array.from({ length: 6_000 }, async (_, i) => {
      try {
        const answer = await status(pools[i % 2] as Pool, a.token, 'POST', '/plants', `{"id":${i},"name":"p${i}"}`);
        if (answer.status === 200) {
          acknowledged.push(i);
          answeredBy[i % 2 === 0 ? 0 : 1] += 1;
          if (answeredBy[0] === 500) killNow();
        }
      } catch {
        // Instance a died under this request: no 200, no promise made.
      }
    });
    await dueToKill;
    await a.stop('SIGKILL');
    await Promise.all(burst);
    await Promise.all(pools.map((pool) => pool.destroy()));
    expect(answeredBy[0]).toBeGreaterThan(0);
    expect(answeredBy[0]).toBeLessThan(3_000);
    // Every create sent to b was answered 200: a's death cost b nothing.
    expect(answeredBy[1]).toBe(3_000);
    const stored = new Set(
      (await db.query<{ id: string }>(`SELECT id::text FROM ${schema}.plants`)).map((row) => Number(row.id)),
    );
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    expect((await status(b.url, b.token, 'POST', '/plants', '{"id":-1,"name":"after"}')).status).toBe(200);
  });

  it('answer 503 with Retry-After while the database is away, serve again once it is back, no restart', async () => {
    const server = new URL(db.url);
    const proxy = await startTcpProxy(server.hostname, Number(server.port || 5432));
    try {
      const { url, schema } = await freshDatabase(proxy.port);
      const instance = await serveOn(url);
      const pool = new Pool(instance.url, { connections: 20 });
      const answers: { id: number; status: number; body: string; retryAfter: string | undefined }[] = [];
      let next = 0;
      let stop = false;
      const load = Array.from({ length: 20 }, async () => {
        while (!stop) {
          const id = next++;
          const answer = await send(pool, instance.token, 'POST', '/plants', `{"id":${id},"name":"p${id}"}`);
          answers.push({
            id,
            status: answer.statusCode,
            body: await answer.body.text(),
            retryAfter: answer.headers['retry-after'] as string | undefined,
          });
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      proxy.cut();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const during = answers.length;
      proxy.restore();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      stop = true;
      await Promise.all(load);
      await pool.close();

      const unavailable = answers.filter((answer) => answer.status === 503);
      expect(unavailable.length).toBeGreaterThan(0);
      for (const answer of unavailable) {
        expect(answer.retryAfter).toBe('1');
        expect(JSON.parse(answer.body)).toEqual({
          error: 1009,
          message: 'the plant store is unavailable right now; try again later',
        });
      }
      // Only 200s, 503s, and for a batch cut mid-statement the honest 500 "may or may not".
      for (const answer of answers.filter((answer) => answer.status !== 200 && answer.status !== 503)) {
        expect(answer.status).toBe(500);
        expect(JSON.parse(answer.body).error).toBe(1013);
      }
      expect(answers.slice(during).filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
      expect(answers.at(-1)?.status).toBe(200);
      const stored = new Set(
        (await db.query<{ id: string }>(`SELECT id::text FROM ${schema}.plants`)).map((row) => Number(row.id)),
      );
      const acknowledged = answers.filter((answer) => answer.status === 200);
      expect(acknowledged.length).toBeGreaterThan(0);
      // Each id was sent once: a 200 is stored, a 503 ("nothing was stored") is not.
      expect(acknowledged.filter((answer) => !stored.has(answer.id)).map((answer) => answer.id)).toEqual([]);
      expect(unavailable.filter((answer) => stored.has(answer.id)).map((answer) => answer.id)).toEqual([]);
      expect(instance.log()).toContain('error: the database');
    } finally {
      await proxy.close();
    }
  });
});
