import { deletePlant } from '../../../core/read-delete.js';
import type { IdFormat } from '../../../import/formats.js';
import type { BulkOptions } from '../../bulk/types.js';
import type { CommandImplementation } from '../../command-implementation.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import type { Target } from '../../target-flags.js';
import { withTargetStore } from '../../target-store.js';
import { exitCode, renderHuman, renderJson, type DeleteField, type DeleteResult } from './render.js';

/** One plant by its id (as given: checked when it runs), or many from a file (--from). */
export type DeleteOptions =
  | { many: false; id: string; target: Target; json: boolean; fields?: readonly DeleteField[] }
  | { many: true; bulk: BulkOptions<IdFormat>; yes: boolean; json: boolean };

export const implementation = {
  run,
  renderHuman,
  renderJson,
  exitCode,
} satisfies CommandImplementation<DeleteOptions, DeleteResult>;

async function run(options: DeleteOptions, ctx: Context): Promise<DeleteResult> {
  // Loaded only for --from: a single delete needs none of the bulk machinery.
  if (options.many) {
    const [{ confirmDeleteMany }, { deleteMany }] = await Promise.all([import('./confirm.js'), import('./many.js')]);
    await confirmDeleteMany(options.bulk, options.yes, ctx);
    return { many: true, bulk: await deleteMany(options.bulk, ctx) };
  }
  const id = idFlag('delete', '--id', options.id);
  return await withTargetStore(options.target, ctx, async ({ store, where }) => {
    await deletePlant(store, id);
    return { many: false, id, where, fields: options.fields };
  });
}
