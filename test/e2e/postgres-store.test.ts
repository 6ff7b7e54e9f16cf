import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PlantsError } from '../../src/core/errors.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { describeSearchConformance } from '../helpers/search-conformance.js';
import { describeStoreConformance, type StoreMaker } from '../helpers/store-conformance.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

/** The test database's URL with `path` (a schema's search_path) or another host and port. */
function urlOf(change: { schema?: string; port?: number }): string {
  const url = new URL(db.url);
  if (change.port !== undefined) url.port = String(change.port);
  if (change.schema !== undefined) url.searchParams.set('options', `-c search_path=${change.schema}`);
  return url.href;
}

let schemas = 0;
/** A schema of its own: each test of the contract starts with no table. */
async function freshSchema(): Promise<string> {
  const schema = `s${++schemas}`;
  await db.query(`CREATE SCHEMA ${schema}`);
  return urlOf({ schema });
}

const postgres: StoreMaker = {
  async open() {
    const url = await freshSchema();
    return { store: await PostgresStore.open(url), reopen: () => PostgresStore.open(url) };
  },
};
describeStoreConformance('the PostgreSQL store', postgres);
describeSearchConformance('the PostgreSQL store', postgres);

async function failureOf(work: Promise<unknown>): Promise<PlantsError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PlantsError);
  return error as PlantsError;
}

describe('the PostgreSQL store: its table', () => {
  it('creates its table once, marked with its schema version, when several open it at once', async () => {
    const url = await freshSchema();
    const stores = await Promise.all(Array.from({ length: 6 }, () => PostgresStore.open(url, { poolSize: 1 })));
    await Promise.all(stores.map((store) => store.close()));
    const schema = new URL(url).searchParams.get('options')?.split('=')[1];
    const [table] = await db.query<{ mark: string }>(
      `SELECT obj_description('${schema}.plants'::regclass, 'pg_class') AS mark`,
    );
    expect(table?.mark).toBe('plants store, schema version 2');
    const columns = await db.query(
      'SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = $1 ' +
        'ORDER BY ordinal_position',
      [schema],
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'bigint', is_nullable: 'NO' },
      { column_name: 'name', data_type: 'text', is_nullable: 'NO' },
      { column_name: 'tag', data_type: 'text', is_nullable: 'YES' },
    ]);
  });

  it('keeps a name PostgreSQL text cannot hold readable to other readers of the table, and only those', async () => {
    const url = await freshSchema();
    const store = await PostgresStore.open(url);
    await store.addAll([
      { id: 1n, name: 'Fern', tag: 'herb' },
      { id: 2n, name: 'a\u0000b' },
    ]);
    await store.close();
    const schema = new URL(url).searchParams.get('options')?.split('=')[1];
    expect(await db.query(`SELECT id::text, name, tag FROM ${schema}.plants ORDER BY id`)).toEqual([
      { id: '1', name: 'Fern', tag: 'herb' },
      { id: '2', name: '\ufdd0"a\\u0000b"', tag: null },
    ]);
  });

  it.each([
    [
      'a table plants did not make',
      'CREATE TABLE plants (id int, name text)',
      /has a table "plants" that plants did not create/,
    ],
    [
      'a newer schema',
      "CREATE TABLE plants (id bigint); COMMENT ON TABLE plants IS 'plants store, schema version 3'",
      /schema version 3, made by a newer plants/,
    ],
    [
      'other columns',
      'CREATE TABLE plants (id bigint PRIMARY KEY, name varchar(10) NOT NULL, tag text); COMMENT ON TABLE ' +
        "plants IS 'plants store, schema version 1'",
      /has the columns \(id bigint true, name character varying\(10\) true, tag text false\)/,
    ],
  ])('refuses %s as store_corrupt, and leaves it untouched', async (_, create, message) => {
    const url = await freshSchema();
    const schema = new URL(url).searchParams.get('options')?.split('=')[1] as string;
    await db.query(`SET search_path = ${schema}; ${create}; RESET search_path`);
    const error = await failureOf(PostgresStore.open(url));
    expect(error.code).toBe('store_corrupt');
    expect(error.message).toMatch(message);
    expect(error.message).toContain('it was left untouched');
    const [table] = await db.query<{ columns: string }>(
      `SELECT string_agg(column_name, ',') AS columns FROM information_schema.columns WHERE table_schema = $1`,
      [schema],
    );
    expect(table?.columns?.split(',').length).toBeLessThanOrEqual(3);
  });
});

describe('the PostgreSQL store: a database that is down', () => {
  it('fails to open with store_io, effect none, naming the URL without its password', async () => {
    const proxy = await startTcpProxy('127.0.0.1', 1);
    proxy.cut();
    const url = new URL(urlOf({ port: proxy.port }));
    url.username = 'someone';
    url.password = 'hunter2-secret';
    const error = await failureOf(PostgresStore.open(url.href, { waitMs: 2_000 }));
    await proxy.close();
    expect(error.code).toBe('store_io');
    expect(error.effect).toBe('none');
    expect(error.message).toContain(`postgresql://someone:***@127.0.0.1:${proxy.port}/`);
    expect(error.message).not.toContain('hunter2');
  });

  it(
    'fails a call with effect none while down, unknown for a write cut mid-statement, and recovers without ' +
      'reopening',
    async () => {
      const server = new URL(db.url);
      const proxy = await startTcpProxy(server.hostname, Number(server.port || 5432));
      const direct = await freshSchema();
      const schema = new URL(direct).searchParams.get('options')?.split('=')[1] as string;
      const url = new URL(direct);
      url.port = String(proxy.port);
      const store = await PostgresStore.open(url.href, { waitMs: 2_000 });
      try {
        expect(await store.addAll([{ id: 1n, name: 'before' }])).toEqual(['added']);

        // A write that waits for a lock held elsewhere is in flight when the database goes away:
        // it may or may not have committed, as far as the store can know.
        const locker = await lockedTable(schema);
        const inFlight = failureOf(store.addAll([{ id: 2n, name: 'in flight' }]));
        await waitForLockWait(schema);
        proxy.cut();
        const cut = await inFlight;
        await locker.release();
        expect(cut.code).toBe('store_io');
        expect(cut.effect).toBe('unknown');
        expect(cut.message).toContain('the plants may or may not be stored');

        // Down: nothing reaches the database, so nothing was done.
        for (const call of [
          store.addAll([{ id: 3n, name: 'down' }]),
          store.deleteAll([1n]),
          store.get(1n),
          store.list({ limit: 10 }),
        ]) {
          const error = await failureOf(call);
          expect([error.code, error.effect]).toEqual(['store_io', 'none']);
        }

        proxy.restore();
        expect(await store.addAll([{ id: 3n, name: 'after' }])).toEqual(['added']);
        // PostgreSQL finished the cut statement once the lock was free: it committed with no one
        // to tell. That is why a write cut mid-statement is `unknown` (500), never `none` (503).
        expect((await store.list({ limit: 10 })).map((plant) => plant.name)).toEqual(['before', 'in flight', 'after']);
      } finally {
        await store.close();
        await proxy.close();
      }
    },
  );
});

/** Holds an exclusive lock on the schema's table from another session, until released. */
async function lockedTable(schema: string): Promise<{ release(): Promise<void> }> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${schema}.plants IN EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}

/** Until some session of the test database waits for a lock. */
async function waitForLockWait(schema: string): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const rows = await db.query(
      `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO plants%'`,
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no insert into ${schema}.plants came to wait for the lock`);
}
