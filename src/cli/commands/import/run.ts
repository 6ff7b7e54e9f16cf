import { duplicateId } from '../../../core/create.js';
import { ERROR_NUMBERS, isPlantsError } from '../../../core/errors.js';
import { encodePlant } from '../../../core/plant-json.js';
import type { NewPlant } from '../../../core/schemas.js';
import { formatFromHead, formatFromName, type Format } from '../../../import/formats.js';
import { PLANT_ROWS } from '../../../import/plant-rows.js';
import { readRows } from '../../../import/rows.js';
import { runBulk } from '../../bulk/run-bulk.js';
import type { BulkKind, BulkResult } from '../../bulk/types.js';
import type { Context } from '../../context.js';
import type { ImportOptions } from './command.js';

export { exitCode, renderHuman, renderJson } from '../../bulk/render.js';

/** Creating plants, a row each: added, or a duplicate (`--on-conflict`). */
const CREATE: BulkKind<NewPlant, Format> = {
  done: 'created',
  summary: { verb: 'Imported', preposition: 'into', unit: 'row', rest: 'the same import with --on-conflict skip imports the rest' },
  formatOfName: formatFromName,
  formatOfHead: formatFromHead,
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
      if (isPlantsError(error) && error.code === 'refused' && error.error === ERROR_NUMBERS.duplicate_id) return { noop: error };
      throw error;
    }
  },
};

export function run(options: ImportOptions, ctx: Context): Promise<BulkResult> {
  return runBulk(CREATE, options, ctx);
}
