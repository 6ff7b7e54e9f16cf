import pg, { type PoolClient, type QueryResultRow } from 'pg';
import { PlantsError, type Effect } from '../../core/errors.js';
import type { NewPlant } from '../../core/schemas.js';
import { decideAdds, decideDeletes, decidePatches, decidePuts, etagOfFor, targetId } from '../../core/decide.js';
import type {
  AddOutcome,
  DeleteOutcome,
  ListQuery,
  Patch,
  PatchOutcome,
  PlantFilter,
  PlantStore,
  PlantWriter,
  Put,
  PutOutcome,
  Removal,
} from '../../core/store.js';
import { maskedDatabaseUrl } from './database-url.js';
import { ensureSchema } from './postgres-schema.js';
import { searchCondition } from './postgres-search.js';
import { toDatabaseText } from './postgres-text.js';
import { columnsOf, plantOf, putInStatements, writeLocked, type PlantRow } from './postgres-writes.js';

export interface PostgresStoreOptions {
  /** Connections at most (default 10): writes in flight and reads share them. */
  poolSize?: number;
  /**
   * The most any call waits on the database (default 10 s): for a connection of the pool, and for
   * each statement (statement_timeout, on every connection: a lock held by a migration or a VACUUM
   * FULL). Past it, the call fails as unavailable, nothing done: an error PostgreSQL answers with
   * means its statement rolled back. A database that answers nothing at all is given 2 s more.
   */
  waitMs?: number;
  /** Told, as it opens, what the log should say of the store: name search reads the whole table (no index for it). */
  onNote?: (note: string) => void;
}

/** The wait bound of a store opened with none: under the client's own time-out (30 s). */
export const DEFAULT_WAIT_MS = 10_000;

// Ids cross the wire as decimal text both ways (`::bigint` in, `::text` out): never a JS number.
// Each statement is prepared once per connection, by name.
const ADD = {
  name: 'plants_add',
  text: `INSERT INTO plants (id, name, tag) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[])
         ON CONFLICT (id) DO NOTHING RETURNING id::text AS id_text`,
};
const DELETE = {
  name: 'plants_delete',
  text: 'DELETE FROM plants WHERE id = ANY($1::bigint[]) RETURNING id::text AS id_text',
};
const GET = { name: 'plants_get', text: 'SELECT id::text AS id_text, name, tag FROM plants WHERE id = $1::bigint' };

/**
 * The PostgreSQL store: one table (postgres-schema.ts) that any number of `plants serve` processes
 * share. Each addAll or deleteAll is ONE statement, so a batch commits whole or not at all, and
 * the primary key decides between two instances adding one id: exactly one is `added`.
 *
 * Failures say whether the call may have taken effect: no connection (the database is down) and an
 * error the database answered with are `none`, so the server answers 503 and a client may send
 * again; a connection lost after a write was sent is `unknown` (500), since it may have committed.
 */
export class PostgresStore implements PlantStore {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly where: string,
  ) {}

  /** Connects, and creates or checks the table: a database that is down or not ours fails here. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.waitMs ?? DEFAULT_WAIT_MS,
      statement_timeout: options.waitMs ?? DEFAULT_WAIT_MS,
      query_timeout: (options.waitMs ?? DEFAULT_WAIT_MS) + 2_000,
      keepAlive: true,
      application_name: 'plants serve',
    });
    // A connection lost is dropped and made anew when next needed; the call using it, if any, fails
    // with the error. Without these listeners, the same error emitted as an event (by an idle
    // connection, or by one in use) would end the process.
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    const store = new PostgresStore(pool, maskedDatabaseUrl(url));
    try {
      const notes = await store.withClient('none', (client) => ensureSchema(client, store.where));
      for (const note of notes) options.onNote?.(note);
    } catch (error) {
      await pool.end();
      throw error;
    }
    return store;
  }

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    if (plants.length === 0) return [];
    const first = new Map<bigint, NewPlant>();
    for (const plant of plants) if (!first.has(plant.id)) first.set(plant.id, plant);
    const rows = await this.query<Pick<PlantRow, 'id_text'>>('unknown', ADD, columnsOf([...first.values()]));
    const added = new Set(rows.map((row) => BigInt(row.id_text)));
    return decideAdds(plants, (id) => !added.has(id));
  }

  /** Puts held to no precondition in one statement a run; any other in a transaction (postgres-writes.ts). */
  async putAll(puts: readonly Put[]): Promise<PutOutcome[]> {
    if (puts.length === 0) return [];
    if (puts.every((put) => put.expect === undefined))
      return await this.withClient('unknown', (client) => putInStatements(client, puts));
    const etagOf = await etagOfFor(puts);
    const ids = puts.map((put) => put.plant.id);
    return await this.withClient('unknown', (client) =>
      writeLocked(client, ids, (get) => ({ ...decidePuts(puts, get, etagOf), deletes: [] })),
    );
  }

  /** Patches depend on the plants as they are: in a transaction (postgres-writes.ts). */
  async patchAll(patches: readonly Patch[]): Promise<PatchOutcome[]> {
    if (patches.length === 0) return [];
    const etagOf = await etagOfFor(patches);
    return await this.withClient('unknown', (client) =>
      writeLocked(
        client,
        patches.map((patch) => patch.id),
        (get) => ({ ...decidePatches(patches, get, etagOf), deletes: [] }),
      ),
    );
  }

  async deleteAll(targets: readonly (bigint | Removal)[]): Promise<DeleteOutcome[]> {
    if (targets.length === 0) return [];
    const ids = targets.map(targetId);
    if (targets.every((target) => typeof target === 'bigint' || target.expect === undefined)) {
      const rows = await this.query<Pick<PlantRow, 'id_text'>>('unknown', DELETE, [[...new Set(ids)].map(String)]);
      const deleted = new Set(rows.map((row) => BigInt(row.id_text)));
      return decideDeletes(
        ids,
        (id) => deleted.has(id),
        () => undefined,
      );
    }
    const etagOf = await etagOfFor(targets);
    return await this.withClient('unknown', (client) =>
      writeLocked(client, ids, (get) => {
        const outcomes = decideDeletes(targets, (id) => get(id) !== undefined, get, etagOf);
        return { outcomes, writes: [], deletes: ids.filter((_, i) => outcomes[i] === 'deleted') };
      }),
    );
  }

  async get(id: bigint): Promise<NewPlant | undefined> {
    const [row] = await this.query<PlantRow>('none', GET, [id.toString()]);
    return row === undefined ? undefined : plantOf(row);
  }

  async list(query: ListQuery): Promise<NewPlant[]> {
    const { after, limit, tag, search } = query;
    const values: unknown[] = [limit];
    const where = filterConditions(query, values);
    if (after !== undefined) where.push(`id > $${values.push(after.toString())}::bigint`);
    // By the table's column, not the `id_text` of the output: text orders 10 before 9.
    const text = `SELECT id::text AS id_text, name, tag FROM plants${whereClause(where)} ORDER BY plants.id LIMIT $1`;
    // A search is planned with its expression each time (an unnamed statement): whether the name
    // index or the id order serves it best depends on how rare the text is.
    const kind = `${after === undefined ? '' : 'a'}${tag === undefined ? '' : 't'}`;
    const name = search === undefined ? `plants_list_${kind}` : undefined;
    const rows = await this.query<PlantRow>('none', { name, text }, values);
    return rows.map(plantOf);
  }

  /** count(*) of the rows that match: the tag by its index, a search by the name index where there is one. */
  async count(filter: PlantFilter): Promise<number> {
    const values: unknown[] = [];
    const text = `SELECT count(*)::text AS count FROM plants${whereClause(filterConditions(filter, values))}`;
    const [row] = await this.query<{ count: string }>('none', { text }, values);
    return Number(row?.count);
  }

  /** Each write is one statement or one transaction, whole or not at all: there is nothing to hold between them. */
  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    return work(this);
  }

  /** The database answers (a database away, or refusing connections, is what the store's outages are). */
  async probe(): Promise<void> {
    await this.query('none', { text: 'SELECT 1' }, []);
  }

  /** The pool's clients now: all, idle, and calls waiting for one (read by the metrics; changes nothing). */
  poolStats(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** A statement, prepared once per connection by its name; planned with its values each time where it has none. */
  private query<Row extends QueryResultRow>(
    effect: Effect,
    statement: { name?: string | undefined; text: string },
    values: unknown[],
  ): Promise<Row[]> {
    return this.withClient(effect, async (client) => (await client.query<Row>({ ...statement, values })).rows);
  }

  /**
   * Runs `work` on a pooled connection. `effect` is what a lost connection means once `work` has
   * begun: `unknown` for a write (it may have committed), `none` for a read.
   */
  private async withClient<T>(effect: Effect, work: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.failure(error, 'none');
    }
    try {
      const result = await work(client);
      client.release();
      return result;
    } catch (error) {
      // An error the database sent is its answer: the statement did not commit. The connection is
      // dropped all the same, lest a connection the server is closing go back to the pool.
      const answered = error instanceof pg.DatabaseError;
      client.release(true);
      if (error instanceof PlantsError) throw error;
      throw this.failure(error, answered ? 'none' : effect);
    }
  }

  private failure(error: unknown, effect: Effect): PlantsError {
    const reason = (error as NodeJS.ErrnoException).code ?? '';
    const message = (error as Error).message ?? String(error);
    const detail = message.includes(reason) ? message : `${reason}: ${message}`;
    return new PlantsError(
      'store_io',
      `the database ${this.where} failed (${detail})` +
        `${effect === 'unknown' ? ': the plants may or may not be stored' : ''}`,
      {
        cause: error,
        effect,
        hint: 'check that PostgreSQL is running and that --database (or PLANTS_DATABASE_URL) names it',
      },
    );
  }
}

/** The conditions of a filter, its values bound after those in `values`. */
function filterConditions({ tag, search }: PlantFilter, values: unknown[]): string[] {
  const where: string[] = [];
  if (tag !== undefined) where.push(`tag = $${values.push(toDatabaseText(tag))}::text`);
  const bind = (value: string) => `$${values.push(value)}::text`;
  const searched = search === undefined ? undefined : searchCondition(search, bind);
  if (searched !== undefined) where.push(searched);
  return where;
}

function whereClause(where: readonly string[]): string {
  return where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
}
