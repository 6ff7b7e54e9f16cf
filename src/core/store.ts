import type { NewPlant } from './schemas.js';

/** What happened to one plant handed to a store. */
export type AddOutcome = 'added' | 'duplicate';

/**
 * Where plants are kept. Implementations: the JSON file store (src/store/file-store.ts) and the
 * in-memory store (src/store/memory-store.ts).
 */
export interface PlantStore {
  /**
   * Adds the plants in order; a plant whose id is taken (by the store or earlier in the same call)
   * is not added. When the promise resolves, every added plant is durable. One outcome per plant.
   */
  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]>;
}

/**
 * Adds each plant whose id is free, in order: a later plant with an id taken earlier in the same
 * call is a duplicate too. Shared by every store, so that they agree on duplicates.
 */
export function addEachNew(plants: readonly NewPlant[], ids: { has(id: bigint): boolean }, add: (plant: NewPlant) => void): AddOutcome[] {
  return plants.map((plant) => {
    if (ids.has(plant.id)) return 'duplicate';
    add(plant);
    return 'added';
  });
}
