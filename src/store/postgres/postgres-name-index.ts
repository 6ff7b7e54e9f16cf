import pg, { type PoolClient } from 'pg';

/** The index a name search (postgres-search.ts) reads instead of the whole table. */
export const NAME_INDEX = 'plants_name_trgm';

/**
 * How long the first start of a version that makes the index may spend building it on a table
 * that has plants already: it holds their writes meanwhile (a SHARE lock). Past it, the table is
 * left as it was, searched by a scan, and the log says how to build the index without holding them.
 */
const BUILD_WAIT = '5s';

/**
 * Makes the trigram index of names (pg_trgm, a GIN index), inside the schema's transaction: it
 * turns a search of a rare text on a million plants from a scan of the table into a read of a few
 * index pages (docs/postgresql.md). pg_trgm ships with PostgreSQL's contrib, and is "trusted": an
 * owner of the database may create it. Where it is not there, may not be created, or the build
 * takes longer than BUILD_WAIT, nothing is made: search works all the same, by a scan, and the
 * note returned says why, for the log.
 */
export async function makeNameIndex(client: PoolClient): Promise<string | undefined> {
  await client.query('SAVEPOINT plants_name_index');
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    // Its operator class where the extension is, which need not be on this connection's search_path.
    const { rows } = await client.query<{ schema: string }>(
      "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'",
    );
    await client.query(`SET LOCAL statement_timeout = '${BUILD_WAIT}'`);
    await client.query(`CREATE INDEX ${NAME_INDEX} ON plants USING gin (name ${rows[0]?.schema}.gin_trgm_ops)`);
    await client.query('RESET statement_timeout');
    await client.query('RELEASE SAVEPOINT plants_name_index');
    return undefined;
  } catch (error) {
    if (!(error instanceof pg.DatabaseError)) throw error;
    await client.query('ROLLBACK TO SAVEPOINT plants_name_index');
    await client.query('RESET statement_timeout');
    const why = error.code === '57014' ? `building it took over ${BUILD_WAIT}` : error.message;
    const index = `CREATE INDEX CONCURRENTLY ${NAME_INDEX} ON plants USING gin (name gin_trgm_ops)`;
    const build = `CREATE EXTENSION IF NOT EXISTS pg_trgm; ${index}`;
    return `${missingIndex(why)}; build it without holding writes with: ${build}`;
  }
}

/** A note for the log where the table has no usable name index (none made, or a concurrent build that failed). */
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
