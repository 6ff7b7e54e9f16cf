import { getPlant } from '../../../core/read-delete.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import { withTargetStore } from '../../target-store.js';
import type { GetOptions } from './command.js';
import type { GetResult } from './render.js';

export { renderHuman, renderJson } from './render.js';

export async function run(options: GetOptions, ctx: Context): Promise<GetResult> {
  const id = idFlag('get', '--id', options.id);
  return await withTargetStore(options.target, ctx, async ({ store, where }) => ({ plant: await getPlant(store, id), where }));
}
