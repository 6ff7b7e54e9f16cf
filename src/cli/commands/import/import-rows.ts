import { duplicateId } from '../../../core/create.js';
import { ERROR_NUMBERS, isPlantsError, PlantsError } from '../../../core/errors.js';
import { encodePlant } from '../../../core/plant-json.js';
import { IdSet } from '../../../core/id-map.js';
import type { NewPlant } from '../../../core/schemas.js';
import type { PutOutcome } from '../../../core/store.js';
import { formatFromName, plantsFormat, type Format } from '../../../import/formats.js';
import { PLANT_ROWS } from '../../../import/plant-rows.js';
import { readRows } from '../../../import/rows.js';
import { runBulk } from '../../bulk/run-bulk.js';
import type { BulkKind, BulkOptions, BulkResult } from '../../bulk/types.js';
import type { Context } from '../../context.js';

export interface ImportOptions extends BulkOptions<Format> {
  /** A row whose id exists replaces the plant (--on-conflict update). */
  updates: boolean;
}

/** Creating plants, a row each: added, or a duplicate (`--on-conflict`). */
const CREATE: BulkKind<NewPlant, Format> = {
  done: 'created',
  summary: {
    verb: 'Imported',
    noneDone: 'Imported none of',
    preposition: 'into',
    unit: 'row',
    rest: 'the same import with --on-conflict skip imports the rest',
  },
  formatOf: plantsFormat,
  rows: (input, format, consumed) => readRows(input, format, PLANT_ROWS, consumed),
  rejected: (row) => ({ value: row.value, json: encodePlant(row.value) }),
  // In the format its name says, for `plants import FILE` to read it back: a JSON array for .json,
  // else NDJSON (the command refuses a .csv name: CSV cannot carry every row).
  rejectsFormat: (path) => (formatFromName(path) === 'json' ? 'json' : 'ndjson'),
  onStore: (store) => ({
    work: async (plants) => (await store.addAll(plants)).map((outcome) => (outcome === 'added' ? 'done' : 'noop')),
    noopError: (row) => duplicateId(row.id),
  }),
  onService: (client) => async (row) => {
    try {
      await client.createPlant(row.value);
      return 'done';
    } catch (error) {
      // The service's own duplicate: a 400 Error 1002, its message kept.
      if (isPlantsError(error) && error.code === 'refused' && error.error === ERROR_NUMBERS.duplicate_id)
        return { noop: error };
      throw error;
    }
  },
  // A dry run: an id repeated in the input, or (locally) in the store already, is a duplicate.
  check: {
    onStore: (store) => {
      const seen = new IdSet();
      return async (plants) =>
        await Promise.all(
          plants.map(async ({ id }) => (seen.addNew(id) && (await store.get(id)) === undefined ? 'valid' : 'noop')),
        );
    },
    onService: () => {
      const seen = new IdSet();
      return async (row) => (seen.addNew(row.id) ? 'valid' : { noop: duplicateId(row.id) });
    },
  },
};

/** The outcome of a put, as a row's: a plant created, replaced, or so already. */
const AS_ROW = { created: 'done', updated: 'updated', unchanged: 'unchanged' } as const;

/**
 * Bringing plants up to date, a row each (`--on-conflict update`): created where the id is free,
 * else replaced (a row without a tag leaves the plant without one), or unchanged where it is so
 * already. A PUT a row on a service (idempotent: an interrupted import run again leaves the same
 * store); putAll of a batch locally.
 */
const UPSERT: BulkKind<NewPlant, Format> = {
  ...CREATE,
  summary: { ...CREATE.summary, rest: 'the same import again brings the rest up to date' },
  onStore: (store) => ({
    work: async (plants) => (await store.putAll(plants.map((plant) => ({ plant })))).map(rowOfPut),
    noopError: (row) => duplicateId(row.id),
  }),
  onService: (client) => async (row) => rowOfPut(await client.putPlant({ plant: row.value })),
  // A dry run reads each plant to tell the rows apart (the service too: a GET a row).
  check: {
    onStore: (store) => async (plants) =>
      await Promise.all(plants.map(async (plant) => wouldPut(plant, await store.get(plant.id)))),
    onService: (client) => async (row) => wouldPut(row.value, await client.getPlant(row.id)),
  },
  updates: true,
};

function rowOfPut(outcome: PutOutcome): 'done' | 'updated' | 'unchanged' {
  // No precondition is sent, so none can fail.
  if (outcome === 'mismatch') throw new PlantsError('internal', 'a put held to no precondition failed one');
  return AS_ROW[outcome];
}

/** What a put of `plant` would do where `stored` is. */
function wouldPut(plant: NewPlant, stored: NewPlant | undefined): 'done' | 'updated' | 'unchanged' {
  if (stored === undefined) return 'done';
  return encodePlant(stored) === encodePlant(plant) ? 'unchanged' : 'updated';
}

/** The import itself: each row of the input created, or brought up to date. */
export function importRows(options: ImportOptions, ctx: Context): Promise<BulkResult> {
  return runBulk(options.updates ? UPSERT : CREATE, options, ctx);
}
