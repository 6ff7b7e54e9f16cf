import type { NewPlant } from '../core/schemas.js';
import type { AddOutcome, PlantStore } from '../core/store.js';

/** A PlantStore in memory: for tests, and as the model the file store must behave like. */
export class MemoryStore implements PlantStore {
  readonly plants = new Map<bigint, NewPlant>();

  /** Adds each plant whose id is free, in order: a later plant with an id taken earlier in the same call is a duplicate too. */
  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return plants.map((plant) => {
      if (this.plants.has(plant.id)) return 'duplicate';
      this.plants.set(plant.id, plant);
      return 'added';
    });
  }
}
