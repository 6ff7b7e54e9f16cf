import type { PoolClient } from 'pg';
import { PlantsError } from '../../core/errors.js';

/**
 * The table the PostgreSQL store keeps plants in, and the mark that says it is ours. The comment
 * on the table carries the schema version: a later plants that changes the table migrates from the
 * version it finds, and this one refuses a table marked with a version it does not know.
 */
export const SCHEMA_VERSION = 1;
const MARK = `plants store, schema version ${SCHEMA_VERSION}`;
const MARK_PATTERN = /^plants store, schema version (\d+)$/;

const CREATE = [
  'CREATE TABLE plants (id bigint PRIMARY KEY, name text NOT NULL, tag text)',
  // `list --tag` pages through one tag in id order.
  'CREATE INDEX plants_tag_id ON plants (tag, id)',
  `COMMENT ON TABLE plants IS '${MARK}'`,
];

/** The columns of schema version 1, in order: name, type, NOT NULL. */
const COLUMNS = 'id bigint true, name text true, tag text false';

// Any one key: instances starting together take turns, and only the first creates the table.
const SCHEMA_LOCK = 7_262_011_950_813_425_151n;

/**
 * Makes sure the database has our table: creates it if there is no `plants` table (on the
 * connection's search_path), checks it if there is one. A table of the same name that is not ours,
 * or of a newer schema, is refused with `store_corrupt` and left untouched.
 */
export async function ensureSchema(client: PoolClient, where: string): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SCHEMA_LOCK.toString()]);
    const { rows } = await client.query<{ found: boolean; mark: string | null; columns: string | null }>(
      `SELECT to_regclass('plants') IS NOT NULL AS found,
              obj_description(to_regclass('plants'), 'pg_class') AS mark,
              (SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod) || ' ' || attnotnull, ', ' ORDER BY attnum)
                 FROM pg_attribute WHERE attrelid = to_regclass('plants') AND attnum > 0 AND NOT attisdropped) AS columns`,
    );
    const table = rows[0];
    if (table?.found === true) checkOurs(table.mark, table.columns, where);
    else for (const statement of CREATE) await client.query(statement);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

function checkOurs(mark: string | null, columns: string | null, where: string): void {
  const version = MARK_PATTERN.exec(mark ?? '')?.[1];
  if (version === undefined) throw notOurs(where, 'it has a table "plants" that plants did not create (no schema mark on it)');
  if (Number(version) > SCHEMA_VERSION) throw notOurs(where, `its table "plants" has schema version ${version}, made by a newer plants; this one knows version ${SCHEMA_VERSION}`);
  if (columns !== COLUMNS) throw notOurs(where, `its table "plants" has the columns (${columns ?? 'none'}), not those of schema version ${SCHEMA_VERSION}`);
}

function notOurs(where: string, why: string): PlantsError {
  return new PlantsError('store_corrupt', `the database ${where} is not a usable plants store: ${why}; it was left untouched`, {
    hint: 'point --database (or PLANTS_DATABASE_URL) at another database, or give plants a search_path without that table',
  });
}
