import { getPlant, noSuchPlant } from '../../../core/read-delete.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import { openLocalStore, serviceClient, targetSettings } from '../../target.js';
import type { GetOptions } from './command.js';
import type { GetResult } from './render.js';

export { renderHuman, renderJson } from './render.js';

export async function run(options: GetOptions, ctx: Context): Promise<GetResult> {
  const id = idFlag('get', '--id', options.id);
  const settings = await targetSettings(options.target, ctx);
  if (options.target.local) {
    const { store, path } = await openLocalStore(settings, ctx);
    try {
      return { plant: await getPlant(store, id), where: path };
    } finally {
      await store.close();
    }
  }
  const { client, baseUrl } = await serviceClient(settings, ctx);
  try {
    const plant = await client.getPlant(id);
    if (plant === undefined) throw noSuchPlant(id);
    return { plant, where: baseUrl };
  } finally {
    await client.close();
  }
}
