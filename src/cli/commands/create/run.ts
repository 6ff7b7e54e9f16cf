import { addPlant } from '../../../core/create.js';
import { parseNewPlantText } from '../../../core/validate.js';
import type { Context } from '../../context.js';
import { openLocalStore, serviceClient, targetSettings } from '../../target.js';
import type { CreateOptions } from './command.js';
import type { CreateResult } from './render.js';

export { renderHuman, renderJson } from './render.js';

export async function run(options: CreateOptions, ctx: Context): Promise<CreateResult> {
  // Validated before anything is read or sent: a bad flag costs nothing.
  const plant = parseNewPlantText(options.plant);
  const settings = await targetSettings(options.target, ctx);
  if (options.target.local) {
    const { store, path } = await openLocalStore(settings, ctx);
    try {
      return { plant: await addPlant(store, plant), where: path };
    } finally {
      await store.close();
    }
  }
  const { client, baseUrl } = await serviceClient(settings, ctx);
  try {
    const answer = await client.createPlant(plant);
    return { plant: { id: plant.id, ...answer }, where: baseUrl };
  } finally {
    await client.close();
  }
}
