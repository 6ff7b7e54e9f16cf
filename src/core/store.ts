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
