import { deletePlant, noSuchPlant } from '../../../core/read-delete.js';
import { formatFromName, idFormatFromHead, type IdFormat } from '../../../import/formats.js';
import { ID_ROWS } from '../../../import/id-rows.js';
import { readRows } from '../../../import/rows.js';
import { runBulk } from '../../bulk/run-bulk.js';
import type { BulkKind } from '../../bulk/types.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import { openLocalStore, serviceClient, targetSettings } from '../../target.js';
import type { DeleteOptions } from './command.js';
import type { DeleteResult } from './render.js';

export { exitCode, renderHuman, renderJson } from './render.js';

/** Deleting plants, a row each: deleted, or not there (`--on-missing`). */
const DELETE: BulkKind<bigint, IdFormat> = {
  done: 'deleted',
  // Read, not Deleted: the ids read are what is counted, and some of them may not be deleted.
  summary: { verb: 'Read', preposition: 'to delete from', unit: 'id', rest: 'the same delete with --on-missing skip deletes the rest' },
  formatOfName: formatFromName,
  formatOfHead: idFormatFromHead,
  rows: (input, format, consumed) => readRows(input, format, ID_ROWS, consumed),
  // `{"id":…}` in any format, as the rows of an input that fail are kept: one form, read back as it is.
  rejected: (row) => ({ value: { id: row.id }, json: `{"id":${row.id}}` }),
  rejectsFormat: (path) => formatFromName(path) ?? 'ndjson',
  onStore: (store) => ({
    work: async (ids) => (await store.deleteAll(ids)).map((outcome) => (outcome === 'deleted' ? 'done' : 'noop')),
    noopError: (row) => noSuchPlant(row.id),
  }),
  onService: (client) => async (row) => ((await client.deletePlant(row.value)) === 'deleted' ? 'done' : { noop: noSuchPlant(row.id) }),
};

export async function run(options: DeleteOptions, ctx: Context): Promise<DeleteResult> {
  if (options.many) return { many: true, bulk: await runBulk(DELETE, options.bulk, ctx) };
  const id = idFlag('delete', '--id', options.id);
  const settings = await targetSettings(options.target, ctx);
  if (options.target.local) {
    const { store, path } = await openLocalStore(settings, ctx);
    try {
      await deletePlant(store, id);
      return { many: false, id, where: path };
    } finally {
      await store.close();
    }
  }
  const { client, baseUrl } = await serviceClient(settings, ctx);
  try {
    if ((await client.deletePlant(id)) === 'absent') throw noSuchPlant(id);
    return { many: false, id, where: baseUrl };
  } finally {
    await client.close();
  }
}
