import { PlantsError } from './errors.js';
import type { NewPlant } from './schemas.js';
import type { PlantStore } from './store.js';

/**
 * The read and delete logic, the same for `--local` and the server (as create.ts is for
 * creates): no plant with the id is `not_found`.
 */
export async function getPlant(store: PlantStore, id: bigint): Promise<NewPlant> {
  const plant = await store.get(id);
  if (plant === undefined) throw noSuchPlant(id);
  return plant;
}

export async function deletePlant(store: PlantStore, id: bigint): Promise<void> {
  const [outcome] = await store.deleteAll([id]);
  if (outcome === 'absent') throw noSuchPlant(id);
}

export function noSuchPlant(id: bigint): PlantsError {
  return new PlantsError('not_found', `no plant with id ${id}`);
}
