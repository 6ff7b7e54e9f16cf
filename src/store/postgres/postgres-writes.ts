import type { PoolClient } from 'pg';
import { PlantsError } from '../../core/errors.js';
import { IdMap } from '../../core/id-map.js';
import type { NewPlant } from '../../core/schemas.js';
import type { Put, PutOutcome } from '../../core/store.js';
import { fromDatabaseText, toDatabaseText } from './postgres-text.js';

/** A plant's row, as the statements give it back: the id as decimal text, never a JS number. */
export interface PlantRow {
  id_text: string;
  name: string;
  tag: string | null;
}

export function plantOf(row: PlantRow): NewPlant {
  const name = fromDatabaseText(row.name);
  return row.tag === null
    ? { id: BigInt(row.id_text), name }
    : { id: BigInt(row.id_text), name, tag: fromDatabaseText(row.tag) };
}

/** The columns of plants, as the statements take them: ids as decimal text, names and tags as kept. */
export function columnsOf(plants: readonly NewPlant[]): string[][] {
  return [
    plants.map((plant) => plant.id.toString()),
    plants.map((plant) => toDatabaseText(plant.name)),
    plants.map((plant) => (plant.tag === undefined ? null : toDatabaseText(plant.tag)) as string),
  ];
}

const PLANTS = 'unnest($1::bigint[], $2::text[], $3::text[])';
// Prepared once per connection, by name, as the store's other statements are.
const PUT = {
  name: 'plants_put',
  // A row the same as the one stored is not written (WHERE … IS DISTINCT FROM), so not returned:
  // unchanged. A row returned was inserted (xmax 0: no transaction has replaced it) or updated.
  text: `INSERT INTO plants (id, name, tag) SELECT * FROM ${PLANTS}
         ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, tag = EXCLUDED.tag
         WHERE (plants.name, plants.tag) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.tag)
         RETURNING id::text AS id_text, (xmax = 0) AS created`,
};
const LOCK = {
  name: 'plants_lock',
  text: 'SELECT id::text AS id_text, name, tag FROM plants WHERE id = ANY($1::bigint[]) FOR UPDATE',
};
const INSERT = {
  name: 'plants_insert',
  text:
    `INSERT INTO plants (id, name, tag) SELECT * FROM ${PLANTS} ON CONFLICT (id) DO NOTHING RETURNING id::text ` +
    'AS id_text',
};
const UPDATE = {
  name: 'plants_update',
  text: `UPDATE plants SET name = p.name, tag = p.tag FROM ${PLANTS} AS p(id, name, tag) WHERE plants.id = p.id`,
};
const DELETE = { name: 'plants_delete_locked', text: 'DELETE FROM plants WHERE id = ANY($1::bigint[])' };

/**
 * Puts held to no precondition: one statement for each run of them with distinct ids (a statement
 * cannot write a row twice), in order, each run whole or not at all.
 */
export async function putInStatements(client: PoolClient, puts: readonly Put[]): Promise<PutOutcome[]> {
  const outcomes: PutOutcome[] = [];
  for (let start = 0; start < puts.length;) {
    const seen = new IdMap<true>();
    let end = start;
    while (end < puts.length && !seen.has((puts[end] as Put).plant.id)) seen.set((puts[end++] as Put).plant.id, true);
    const run = puts.slice(start, end).map((put) => put.plant);
    const rows = (await client.query<{ id_text: string; created: boolean }>({ ...PUT, values: columnsOf(run) })).rows;
    const written = new IdMap<boolean>();
    for (const row of rows) written.set(BigInt(row.id_text), row.created);
    for (const { id } of run)
      outcomes.push(!written.has(id) ? 'unchanged' : written.get(id) === true ? 'created' : 'updated');
    start = end;
  }
  return outcomes;
}

/**
 * What a call decided on the rows as they are: its outcomes, and the plants it writes and the ids it deletes, in order.
 */
export interface LockedDecision<O> {
  outcomes: O[];
  writes: readonly NewPlant[];
  deletes: readonly bigint[];
}

/** How often a transaction is made again when another writer created a plant it found absent. */
const TRIES = 5;

/**
 * Writes decided on the rows as they are (patches, and writes held to a precondition), in one
 * transaction: the rows of `ids` locked (FOR UPDATE), the writes decided on them as every store
 * decides them (core/decide.ts), then made. No lock holds a row that is not there: one another
 * writer creates meanwhile is found by the insert of a plant decided absent, and the transaction
 * is made again, on the rows as they then are.
 */
export async function writeLocked<O>(
  client: PoolClient,
  ids: readonly bigint[],
  decide: (get: (id: bigint) => NewPlant | undefined) => LockedDecision<O>,
): Promise<O[]> {
  for (let attempt = 1; ; attempt += 1) {
    await client.query('BEGIN');
    try {
      const rows = (await client.query<PlantRow>({ ...LOCK, values: [[...new Set(ids)].map(String)] })).rows;
      const before = new IdMap<NewPlant>();
      for (const row of rows) before.set(BigInt(row.id_text), plantOf(row));
      const { outcomes, writes, deletes } = decide((id) => before.get(id));
      // Each id's last state, as the call leaves it.
      const after = new IdMap<NewPlant | null>();
      for (const plant of writes) after.set(plant.id, plant);
      for (const id of deletes) after.set(id, null);
      const created: NewPlant[] = [];
      const updated: NewPlant[] = [];
      const deleted: string[] = [];
      for (const id of after.ids()) {
        const state = after.get(id) ?? null;
        if (state === null) deleted.push(id.toString());
        else if (before.has(id)) updated.push(state);
        else created.push(state);
      }
      if (
        created.length > 0 &&
        (await client.query({ ...INSERT, values: columnsOf(created) })).rows.length < created.length
      ) {
        await client.query('ROLLBACK');
        if (attempt === TRIES)
          throw new PlantsError(
            'store_io',
            `the plants kept being created by another writer as this one wrote them (${TRIES} tries)`,
            { hint: 'try again' },
          );
        continue;
      }
      if (updated.length > 0) await client.query({ ...UPDATE, values: columnsOf(updated) });
      if (deleted.length > 0) await client.query({ ...DELETE, values: [deleted] });
      await client.query('COMMIT');
      return outcomes;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }
}
