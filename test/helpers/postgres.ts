import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the tests use: `PLANTS_TEST_DATABASE_URL`, else the one every machine here runs. */
export const TEST_SERVER_URL = process.env.PLANTS_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  /** The URL of this database, on the test server. */
  url: string;
  /** Runs SQL as the test server's user, in this database. */
  query<Row extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Drops the database, whoever is still connected to it. */
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file (or test), made on the test server and dropped by
 * `drop`. The PostgreSQL tests never skip: with no server answering, they fail and say so.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `plants_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(TEST_SERVER_URL, `CREATE DATABASE ${name}`);
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.href, max: 2 });
  pool.on('error', () => undefined);
  return {
    url: url.href,
    query: async (text, values) => (await pool.query(text, values)).rows,
    drop: async () => {
      await pool.end();
      await onServer(TEST_SERVER_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `no PostgreSQL answers at ${url} (${(error as Error).message}): these tests need one. ` +
        'Start it (pg_ctlcluster --skip-systemctl-redirect 15 main start) or set PLANTS_TEST_DATABASE_URL.',
    );
  }
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
