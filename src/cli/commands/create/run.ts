import { addPlant } from '../../../core/create.js';
import { printable } from '../../../core/printable.js';
import type { NewPlant } from '../../../core/schemas.js';
import { parseNewPlantText } from '../../../core/validate.js';
import { Settings } from '../../config/resolve.js';
import type { Context, IOStreams } from '../../context.js';
import { serviceClient } from '../../service-client.js';
import type { CommandModule } from '../types.js';
import type { CreateOptions } from './command.js';

export interface CreateResult {
  /** The plant as stored: for a remote create, the id sent with the name and tag the service answered. */
  plant: NewPlant;
  /** The store file, or the service's base URL. */
  where: string;
}

async function run(options: CreateOptions, ctx: Context): Promise<CreateResult> {
  // Validated before anything is read or sent: a bad flag costs nothing.
  const plant = parseNewPlantText(options);
  const settings = await Settings.load(ctx, {
    store: options.store,
    'base-url': options.baseUrl,
    token: options.token,
    timeout: options.timeout,
  });
  if (options.local) {
    const path = settings.require('store');
    return { plant: await addPlant(await ctx.openStore(path), plant), where: path };
  }
  const { client, baseUrl } = await serviceClient(settings, ctx);
  try {
    const answer = await client.createPlant(plant);
    return { plant: { id: plant.id, ...answer }, where: baseUrl };
  } finally {
    await client.close();
  }
}

function renderHuman({ plant, where }: CreateResult, io: IOStreams): void {
  const style = io.stdoutStyle;
  const tag = plant.tag === undefined ? '' : ` tagged "${printable(plant.tag)}"`;
  io.stdout.write(`${style.green('Created')} plant ${style.bold(String(plant.id))} "${printable(plant.name)}"${tag} in ${where}\n`);
}

export const command: CommandModule<CreateOptions, CreateResult> = {
  run,
  renderHuman,
  toJson: (result) => result.plant,
};
