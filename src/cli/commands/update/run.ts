import { changePlant } from '../../../core/change.js';
import { parsePatch } from '../../../core/validate.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import { withTargetStore } from '../../target-store.js';
import type { UpdateOptions } from './command.js';
import type { UpdateResult } from './render.js';

export { renderHuman, renderJson } from './render.js';

export async function run(options: UpdateOptions, ctx: Context): Promise<UpdateResult> {
  const id = idFlag('update', '--id', options.id);
  // Validated before anything is read or sent, by the schema of a PATCH body: the messages of create's.
  const change = parsePatch(options.change, id);
  return await withTargetStore(options.target, ctx, async ({ store, where }) => ({ ...(await changePlant(store, { id, ...change })), where }));
}
