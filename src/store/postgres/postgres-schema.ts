import type { PoolClient } from 'pg';
import { PlantsError } from '../../core/errors.js';
import { makeNameIndexes, nameIndexNote } from './postgres-name-index.js';

/**
 * The table the PostgreSQL store keeps plants in, and the mark that says it is ours. The comment
 * on the table carries the schema version: a later plants that changes the table migrates from the
 * version it finds, and this one refuses a table marked with a version it does not know.
 * Version 2 adds the indexes of a name search (postgres-name-index.ts), where they can be made.
 */
export const SCHEMA_VERSION = 2;
const MARK = `plants store, schema version ${SCHEMA_VERSION}`;
const MARK_PATTERN = /^plants store, schema version (\d+)$/;

const CREATE = [
  'CREATE TABLE plants (id bigint PRIMARY KEY, name text NOT NULL, tag text)',
  // `list --tag` pages through one tag in id order.
  'CREATE INDEX plants_tag_id ON plants (tag, id)',
];

/** The columns of schema versions 1 and 2, in order: name, type, NOT NULL. */
const COLUMNS = 'id bigint true, name text true, tag text false';

// Any one key: instances starting together take turns, and only the first creates the table.
const SCHEMA_LOCK = 7_262_011_950_813_425_151n;

/**
 * Makes sure the database has our table: creates it if there is no `plants` table (on the
 * connection's search_path), checks it if there is one, and migrates one of version 1. A table
 * of the same name that is not ours, or of a newer schema, is refused with `store_corrupt` and
 * left untouched. Returns the notes for the log: where name search reads the whole table.
 */
export async function ensureSchema(client: PoolClient, where: string): Promise<string[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [SCHEMA_LOCK.toString()]);
    const { rows } = await client.query<{ found: boolean; mark: string | null; columns: string | null }>(
      `SELECT to_regclass('plants') IS NOT NULL AS found,
              obj_description(to_regclass('plants'), 'pg_class') AS mark,
              (SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod) || ' ' || attnotnull, ', '
                                 ORDER BY attnum)
                 FROM pg_attribute
                WHERE attrelid = to_regclass('plants') AND attnum > 0 AND NOT attisdropped) AS columns`,
    );
    const table = rows[0];
    let notes: string[];
    const version = table?.found === true ? checkOurs(table.mark, table.columns, where) : undefined;
    if (version === SCHEMA_VERSION) notes = [await nameIndexNote(client)].filter((note) => note !== undefined);
    else {
      if (version === undefined) for (const statement of CREATE) await client.query(statement);
      // Version 1 to 2: the indexes of a search, which change nothing plants of version 1 reads or writes.
      notes = await makeNameIndexes(client);
      await client.query(`COMMENT ON TABLE plants IS '${MARK}'`);
    }
    await client.query('COMMIT');
    return notes;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The schema version of a table marked as ours, with our columns; else why it is not ours. */
function checkOurs(mark: string | null, columns: string | null, where: string): number {
  const version = MARK_PATTERN.exec(mark ?? '')?.[1];
  if (version === undefined)
    throw notOurs(where, 'it has a table "plants" that plants did not create (no schema mark on it)');
  if (Number(version) > SCHEMA_VERSION)
    throw notOurs(
      where,
      `its table "plants" has schema version ${version}, made by a newer plants; this one knows version ` +
        `${SCHEMA_VERSION}`,
    );
  if (columns !== COLUMNS) {
    const found = columns ?? 'none';
    throw notOurs(where, `its table "plants" has the columns (${found}), not those of schema version ${version}`);
  }
  return Number(version);
}

function notOurs(where: string, why: string): PlantsError {
  return new PlantsError(
    'store_corrupt',
    `the database ${where} is not a usable plants store: ${why}; it was left untouched`,
    {
      hint:
        'point --database (or PLANTS_DATABASE_URL) at another database, or give plants a search_path without ' +
        'that table',
    },
  );
}
