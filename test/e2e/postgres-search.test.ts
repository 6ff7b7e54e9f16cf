import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { searchCondition } from '../../src/store/postgres/postgres-search.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { startServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

let schemas = 0;
/** A schema of its own on the search_path (made by `owner`, or by the test server's user): no table yet. */
async function freshSchema(owner?: string, on: TestDatabase = db): Promise<{ url: string; schema: string }> {
  const schema = `search${++schemas}`;
  await on.query(`CREATE SCHEMA ${schema}${owner === undefined ? '' : ` AUTHORIZATION ${owner}`}`);
  const url = new URL(on.url);
  url.searchParams.set('options', `-c search_path=${schema}`);
  if (owner !== undefined) url.username = owner;
  return { url: url.href, schema };
}

const PLANTS = [
  { id: 1n, name: 'Boston Fern', tag: 'herb' },
  { id: 2n, name: 'ΟΔΟΣ' },
  { id: 3n, name: 'nul\u0000fern' },
];

async function opened(url: string): Promise<{ store: PostgresStore; notes: string[] }> {
  const notes: string[] = [];
  return { store: await PostgresStore.open(url, { onNote: (note) => notes.push(note) }), notes };
}

describe('the PostgreSQL store: name search, schema version 2', () => {
  it('migrates a table of version 1: the trigram index of names, the mark of version 2, every plant kept', async () => {
    const { url, schema } = await freshSchema();
    await db.query(`SET search_path = ${schema};
      CREATE TABLE plants (id bigint PRIMARY KEY, name text NOT NULL, tag text);
      CREATE INDEX plants_tag_id ON plants (tag, id);
      COMMENT ON TABLE plants IS 'plants store, schema version 1';
      INSERT INTO plants VALUES (1, 'Boston Fern', 'herb'), (2, 'ΟΔΟΣ', NULL), (3, E'\\uFDD0"nul\\\\u0000fern"', NULL);
      RESET search_path`);
    const { store, notes } = await opened(url);
    try {
      expect(notes).toEqual([]);
      expect(await store.list({ limit: 10 })).toEqual(PLANTS);
      expect(await store.list({ limit: 10, search: 'FERN' })).toEqual([PLANTS[0], PLANTS[2]]);
      expect(await store.count({ search: 'οδος' })).toBe(1);
    } finally {
      await store.close();
    }
    const marked = `SELECT obj_description('${schema}.plants'::regclass, 'pg_class') AS mark`;
    const [table] = await db.query<{ mark: string }>(marked);
    expect(table?.mark).toBe('plants store, schema version 2');
    const named = 'SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE $2 ORDER BY 1';
    const indexes = await db.query<{ indexname: string; indexdef: string }>(named, [schema, 'plants_%']);
    const names = ['plants_name_trgm', 'plants_pkey', 'plants_stored_as_json', 'plants_tag_id'];
    expect(indexes.map((index) => index.indexname)).toEqual(names);
    expect(indexes[0]?.indexdef).toMatch(/USING gin \(name \S*gin_trgm_ops\)/);
    expect(indexes[2]?.indexdef).toMatch(/\(id\) WHERE starts_with\(name, '\ufdd0'::text\)$/);
  });

  it('searches by the indexes the planner may take: one of trigrams, one of the names stored as JSON', async () => {
    const { url, schema } = await freshSchema();
    const { store } = await opened(url);
    await store.close();
    const values: string[] = [];
    const condition = searchCondition('Fern', (value) => `$${values.push(value)}::text`) as string;
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // An empty table is scanned whatever its indexes: with scans priced out, what the index can serve shows.
      await client.query(`SET search_path = ${schema}`);
      await client.query('SET enable_seqscan = off');
      const explained = `EXPLAIN SELECT id FROM plants WHERE ${condition}`;
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(explained, values);
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Bitmap Index Scan on plants_name_trgm/);
      expect(plan).toMatch(/Bitmap Index Scan on plants_stored_as_json/);
    } finally {
      await client.end();
    }
  });

  it('without the right to create pg_trgm: no index, a note that says why, a search that scans, as right', async () => {
    const role = `plants_no_extension_${randomBytes(3).toString('hex')}`;
    // A database of its own: no pg_trgm in it yet, which only its owner, or a superuser, may create.
    const own = await createTestDatabase();
    await db.query(`CREATE ROLE ${role} LOGIN`);
    try {
      const { url } = await freshSchema(role, own);
      const { store, notes } = await opened(url);
      try {
        expect(notes).toHaveLength(1);
        expect(notes).toEqual([
          'name search (list --search) reads the whole table: no trigram index of names ' +
            '(permission denied to create extension "pg_trgm"); build it without holding writes with: ' +
            'CREATE EXTENSION IF NOT EXISTS pg_trgm; ' +
            'CREATE INDEX CONCURRENTLY plants_name_trgm ON plants USING gin (name gin_trgm_ops)',
        ]);
        await store.addAll(PLANTS);
        expect(await store.list({ limit: 10, search: 'fErN' })).toEqual([PLANTS[0], PLANTS[2]]);
        expect(await store.count({ search: '\u0000' })).toBe(1);
      } finally {
        await store.close();
      }
      // Said again by each start, as long as there is no index: the table is of version 2 all the same.
      const again = await opened(url);
      await again.store.close();
      expect(again.notes).toEqual([expect.stringContaining('there is no index plants_name_trgm')]);
      // plants serve says it once, in its log.
      const server = await startServer(await tempDir(), ['--database', url]);
      await server.stop();
      expect(server.log().match(/no trigram index of names/g)).toHaveLength(1);
      expect(server.log()).toContain('plants serve: name search (list --search) reads the whole table');
    } finally {
      await own.drop();
      await db.query(`DROP OWNED BY ${role} CASCADE`);
      await db.query(`DROP ROLE ${role}`);
    }
  });
});
