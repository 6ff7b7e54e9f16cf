import type { NewPlant } from '../core/schemas.js';
import type { AddOutcome, PlantStore } from '../core/store.js';

/** A PlantStore in memory: for tests, and as the model the file store must behave like. */
export class MemoryStore implements PlantStore {
  readonly plants = new Map<bigint, NewPlant>();

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return addTo(this.plants, plants);
  }
}

/** Adds each plant whose id is free, in order; shared by every store so they agree on duplicates. */
export function addTo(existing: Map<bigint, NewPlant>, plants: readonly NewPlant[]): AddOutcome[] {
  return plants.map((plant) => {
    if (existing.has(plant.id)) return 'duplicate';
    existing.set(plant.id, plant);
    return 'added';
  });
}
