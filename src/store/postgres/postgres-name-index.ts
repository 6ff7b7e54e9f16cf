import pg, { type PoolClient } from 'pg';

/** The index a name search (postgres-search.ts) reads instead of the whole table. */
export const NAME_INDEX = 'plants_name_trgm';
/** The ids of the names stored as JSON literals (postgres-text.ts): a search reads those few apart. */
export const STORED_AS_JSON_INDEX = 'plants_stored_as_json';

/** `starts_with(name, U+FDD0)`, as the partial index and each search write it: the planner matches the two. */
export const STORED_AS_JSON = "starts_with(name, E'\\uFDD0')";

/**
 * How long the first start of a version that makes the indexes may spend building each on a table
 * that has plants already: it holds their writes meanwhile (a SHARE lock). Past it, the table is
 * left as it was, searched by a scan, and the log says how to build the index without holding them.
 */
const BUILD_WAIT = '5s';

const INDEXES = [
  `CREATE INDEX ${STORED_AS_JSON_INDEX} ON plants (id) WHERE ${STORED_AS_JSON}`,
  // Its operator class where the extension is, which need not be on this connection's search_path.
  (schema: string) => `CREATE INDEX ${NAME_INDEX} ON plants USING gin (name ${schema}.gin_trgm_ops)`,
] as const;

/**
 * Makes the indexes of a name search, inside the schema's transaction: the trigram index of names
 * (pg_trgm, a GIN index), which turns a search of a rare text on a million plants from a scan of
 * the table into a read of a few index pages (docs/postgresql.md), and a partial index of the few
 * names stored as JSON literals. pg_trgm ships with PostgreSQL's contrib, and is "trusted": an
 * owner of the database may create it. Where an index is not made (no pg_trgm, no right to create
 * it, a build longer than BUILD_WAIT), search works all the same, by a scan, and the note returned
 * says why, for the log.
 */
export async function makeNameIndexes(client: PoolClient): Promise<string[]> {
  const [storedAsJson, trigrams] = INDEXES;
  const notes: string[] = [];
  const apart = await bounded(client, async () => void (await client.query(storedAsJson)));
  const literals = 'name search reads the whole table for names stored as JSON literals';
  if (apart !== undefined) notes.push(`${literals} (${apart})`);
  const why = await bounded(client, async () => {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    const { rows } = await client.query<{ schema: string }>(
      "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'",
    );
    await client.query(trigrams(rows[0]?.schema as string));
  });
  if (why !== undefined) {
    const index = `CREATE INDEX CONCURRENTLY ${NAME_INDEX} ON plants USING gin (name gin_trgm_ops)`;
    const build = `CREATE EXTENSION IF NOT EXISTS pg_trgm; ${index}`;
    notes.push(`${missingIndex(why)}; build it without holding writes with: ${build}`);
  }
  return notes;
}

/** Runs `work` in a savepoint, each statement held to BUILD_WAIT: undefined once done, else why not (undone). */
async function bounded(client: PoolClient, work: () => Promise<void>): Promise<string | undefined> {
  await client.query('SAVEPOINT plants_name_index');
  try {
    await client.query(`SET LOCAL statement_timeout = '${BUILD_WAIT}'`);
    await work();
    await client.query('RESET statement_timeout');
    await client.query('RELEASE SAVEPOINT plants_name_index');
    return undefined;
  } catch (error) {
    if (!(error instanceof pg.DatabaseError)) throw error;
    await client.query('ROLLBACK TO SAVEPOINT plants_name_index');
    return error.code === '57014' ? `building it took over ${BUILD_WAIT}` : error.message;
  }
}

/** A note for the log where the table has no usable trigram index (none made, or a concurrent build that failed). */
export async function nameIndexNote(client: PoolClient): Promise<string | undefined> {
  const { rows } = await client.query<{ valid: boolean | null }>(
    `SELECT (SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('${NAME_INDEX}')) AS valid`,
  );
  const valid = rows[0]?.valid;
  if (valid === true) return undefined;
  const invalid = `${NAME_INDEX} is not valid (a concurrent build failed: drop it, build it again)`;
  if (valid === false) return missingIndex(invalid);
  return missingIndex(`there is no index ${NAME_INDEX}`);
}

function missingIndex(why: string): string {
  return `name search (list --search) reads the whole table: no trigram index of names (${why})`;
}
