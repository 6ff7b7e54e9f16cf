import { IdSet } from '../../../core/id-map.js';
import { noSuchPlant } from '../../../core/read-delete.js';
import { formatFromName, idFormat, type IdFormat } from '../../../import/formats.js';
import { ID_ROWS } from '../../../import/id-rows.js';
import { readRows } from '../../../import/rows.js';
import { countRows } from '../../bulk/input-rows.js';
import { runBulk } from '../../bulk/run-bulk.js';
import type { BulkKind, BulkOptions, BulkResult } from '../../bulk/types.js';
import type { Context } from '../../context.js';

/** Deleting plants, a row each: deleted, or not there (`--on-missing`). */
const DELETE: BulkKind<bigint, IdFormat> = {
  done: 'deleted',
  // Read, not Deleted: the ids read are what is counted, and some of them may not be deleted.
  summary: {
    verb: 'Read',
    preposition: 'to delete from',
    unit: 'id',
    rest: 'the same delete with --on-missing skip deletes the rest',
    namesInput: true,
  },
  formatOf: idFormat,
  rows: (input, format, consumed) => readRows(input, format, ID_ROWS, consumed),
  // `{"id":…}` in any format, as the rows of an input that fail are kept: one form, read back as it is.
  rejected: (row) => ({ value: { id: row.id }, json: `{"id":${row.id}}` }),
  rejectsFormat: (path) => formatFromName(path) ?? 'ndjson',
  onStore: (store) => ({
    work: async (ids) => (await store.deleteAll(ids)).map((outcome) => (outcome === 'deleted' ? 'done' : 'noop')),
    noopError: (row) => noSuchPlant(row.id),
  }),
  onService: (client) => async (row) =>
    (await client.deletePlant(row.value)) === 'deleted' ? 'done' : { noop: noSuchPlant(row.id) },
  // A dry run: an id repeated in the input, or (locally) not in the store, is not there to delete.
  check: {
    onStore: (store) => {
      const seen = new IdSet();
      return async (ids) =>
        await Promise.all(
          ids.map(async (id) => (seen.addNew(id) && (await store.get(id)) !== undefined ? 'valid' : 'noop')),
        );
    },
    onService: () => {
      const seen = new IdSet();
      return async (row) => (seen.addNew(row.id) ? 'valid' : { noop: noSuchPlant(row.id) });
    },
  },
};

/** `delete --from`: the ids of a file or standard input, a row each. */
export function deleteMany(options: BulkOptions<IdFormat>, ctx: Context): Promise<BulkResult> {
  return runBulk(DELETE, options, ctx);
}

/** How many ids `delete --from FILE` would read: the file read once to its end, counted, nothing held. */
export function countIds(options: BulkOptions<IdFormat>, ctx: Context): Promise<number> {
  return countRows(DELETE, options, ctx);
}
