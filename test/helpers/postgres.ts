import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * The PostgreSQL server the tests use: `PLANTS_TEST_DATABASE_URL`, which the run sets before its
 * tests start (test/setup/postgres.ts, from test/helpers/postgres-server.ts), and the fast set blanks.
 */
function testServerUrl(): string {
  const url = process.env.PLANTS_TEST_DATABASE_URL;
  if (url === undefined || url === '') {
    throw new Error('no PostgreSQL for this test: only the tests under test/e2e/ have one (see vitest.config.ts)');
  }
  return url;
}

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
  const server = testServerUrl();
  const name = `plants_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await onServer(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.href, max: 2 });
  pool.on('error', () => undefined);
  return {
    url: url.href,
    query: async (text, values) => (await pool.query(text, values)).rows,
    drop: async () => {
      await pool.end();
      await onServer(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
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
        'Start it, or unset PLANTS_TEST_DATABASE_URL: npm test then finds or starts one ' +
        '(test/helpers/postgres-server.ts).',
    );
  }
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
