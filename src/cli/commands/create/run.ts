import { addPlant } from '../../../core/create.js';
import { parseNewPlantText } from '../../../core/new-plant.js';
import type { PlantField } from '../../../core/plant-fields.js';
import type { CommandImplementation } from '../../command-implementation.js';
import type { Context } from '../../context.js';
import type { Target } from '../../target-flags.js';
import { withTargetStore, type TargetStore } from '../../target-store.js';
import { renderHuman, renderJson, type CreateResult } from './render.js';

export interface CreateOptions {
  /** As given: checked against the NewPlant schema when it runs. */
  plant: { id: string; name: string; tag?: string };
  target: Target;
  json: boolean;
  /** With --json, only these fields. */
  fields?: readonly PlantField[];
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
} satisfies CommandImplementation<CreateOptions, CreateResult>;

async function run(options: CreateOptions, ctx: Context): Promise<CreateResult> {
  // Validated before anything is read or sent: a bad flag costs nothing.
  const plant = parseNewPlantText(options.plant);
  const { target, fields } = options;
  const create = async ({ store, where }: TargetStore) => ({ plant: await addPlant(store, plant), where, fields });
  return await withTargetStore(target, ctx, create, { makes: true });
}
