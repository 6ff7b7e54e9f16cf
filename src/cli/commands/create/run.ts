import { addPlant } from '../../../core/create.js';
import { parseNewPlantText } from '../../../core/new-plant.js';
import type { Context } from '../../context.js';
import { withTargetStore } from '../../target-store.js';
import type { CreateOptions } from './command.js';
import type { CreateResult } from './render.js';

export { renderHuman, renderJson } from './render.js';

export async function run(options: CreateOptions, ctx: Context): Promise<CreateResult> {
  // Validated before anything is read or sent: a bad flag costs nothing.
  const plant = parseNewPlantText(options.plant);
  return await withTargetStore(options.target, ctx, async ({ store, where }) => ({ plant: await addPlant(store, plant), where }), { makes: true });
}
