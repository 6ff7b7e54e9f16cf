import { PlantsError } from './errors.js';
import { checkNewPlant } from './new-plant.js';
import type { NewPlant, Plant } from './schemas.js';
import type { PlantStore } from './store.js';

/**
 * The one create logic: validate, then add. Returns the stored plant (with its id); throws
 * PlantsError `invalid_plant` or `duplicate_id`.
 */
export async function createPlant(store: PlantStore, input: unknown): Promise<NewPlant> {
  const { plant, invalid } = checkNewPlant(input);
  if (invalid !== undefined) throw invalid;
  return await addPlant(store, plant);
}

/**
 * The add of createPlant, for a caller that holds a validated NewPlant already: throws
 * `duplicate_id`, or the store's own refusal (a service's, in its words).
 */
export async function addPlant(store: PlantStore, plant: NewPlant): Promise<NewPlant> {
  const [outcome] = await store.addAll([plant]);
  if (outcome === 'added') return plant;
  throw outcome === 'duplicate'
    ? duplicateId(plant.id)
    : (outcome ?? new Error('the store gave no outcome for the plant'));
}

export function duplicateId(id: bigint): PlantsError {
  return new PlantsError('duplicate_id', `a plant with id ${id} already exists`);
}

/** The contract's 200 body: a Plant has no id. */
export function toPlant(plant: NewPlant): Plant {
  return plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag };
}
