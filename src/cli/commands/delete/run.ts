import { deletePlant } from '../../../core/read-delete.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import { withTargetStore } from '../../target-store.js';
import type { DeleteOptions } from './command.js';
import type { DeleteResult } from './render.js';

export { exitCode, renderHuman, renderJson } from './render.js';

export async function run(options: DeleteOptions, ctx: Context): Promise<DeleteResult> {
  // Loaded only for --from: a single delete needs none of the bulk machinery.
  if (options.many) return { many: true, bulk: await (await import('./many.js')).deleteMany(options.bulk, ctx) };
  const id = idFlag('delete', '--id', options.id);
  return await withTargetStore(options.target, ctx, async ({ store, where }) => {
    await deletePlant(store, id);
    return { many: false, id, where };
  });
}
