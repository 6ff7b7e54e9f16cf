import type { NewPlant } from '../core/schemas.js';
import { addEachNew, type AddOutcome, type PlantStore } from '../core/store.js';

/** A PlantStore in memory: for tests, and as the model the file store must behave like. */
export class MemoryStore implements PlantStore {
  readonly plants = new Map<bigint, NewPlant>();

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return addEachNew(plants, this.plants, (plant) => this.plants.set(plant.id, plant));
  }
}
