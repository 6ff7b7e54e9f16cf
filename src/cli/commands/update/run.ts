import { changePlant } from '../../../core/change.js';
import type { PlantField } from '../../../core/plant-fields.js';
import { parsePatch } from '../../../core/validate.js';
import type { CommandImplementation } from '../../command-implementation.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import type { Target } from '../../target-flags.js';
import { withTargetStore } from '../../target-store.js';
import { renderHuman, renderJson, type UpdateResult } from './render.js';

export interface UpdateOptions {
  /** As given, as is the change: checked when it runs. */
  id: string;
  /** A tag of null removes the tag (--no-tag). */
  change: { name?: string; tag?: string | null };
  target: Target;
  json: boolean;
  /** With --json, only these fields. */
  fields?: readonly PlantField[];
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
} satisfies CommandImplementation<UpdateOptions, UpdateResult>;

async function run(options: UpdateOptions, ctx: Context): Promise<UpdateResult> {
  const id = idFlag('update', '--id', options.id);
  // Validated before anything is read or sent, by the schema of a PATCH body: the messages of create's.
  const change = parsePatch(options.change, id);
  const { target, fields } = options;
  return await withTargetStore(target, ctx, async ({ store, where }) => {
    const { plant, changed } = await changePlant(store, { id, ...change });
    return { plant, changed, where, fields };
  });
}
