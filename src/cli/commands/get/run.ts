import type { PlantField } from '../../../core/plant-fields.js';
import { getPlant } from '../../../core/read-delete.js';
import type { CommandImplementation } from '../../command-implementation.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import type { Target } from '../../target-flags.js';
import { withTargetStore } from '../../target-store.js';
import { renderHuman, renderJson, type GetResult } from './render.js';

export interface GetOptions {
  /** As given: checked when it runs. */
  id: string;
  target: Target;
  json: boolean;
  /** With --json, only these fields. */
  fields?: readonly PlantField[];
}

export const implementation = { run, renderHuman, renderJson } satisfies CommandImplementation<GetOptions, GetResult>;

async function run(options: GetOptions, ctx: Context): Promise<GetResult> {
  const id = idFlag('get', '--id', options.id);
  const { target, fields } = options;
  return await withTargetStore(target, ctx, async ({ store, where }) => {
    const plant = await getPlant(store, id);
    return { plant, where, fields };
  });
}
