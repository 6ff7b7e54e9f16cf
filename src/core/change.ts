import { noSuchPlant, preconditionFailed } from './read-delete.js';
import type { NewPlant } from './schemas.js';
import type { Patch, PlantStore, Put, PutOutcome } from './store.js';

/**
 * The logic of changing plants, the same for `--local` and the server (as create.ts is for
 * creates): a precondition not met is `precondition_failed`; a patch of no plant, `not_found`.
 */

/** Creates or replaces a plant (PUT): what it did; nothing, where the plant was so already. */
export async function replacePlant(store: PlantStore, put: Put): Promise<Exclude<PutOutcome, 'mismatch'>> {
  const [outcome] = await store.putAll([put]);
  if (outcome === 'mismatch') throw preconditionFailed(put.plant.id);
  if (outcome === undefined) throw new Error('the store gave no outcome for the plant');
  return outcome;
}

/** Changes the fields a patch gives of a stored plant: the plant as it now is, and whether it changed. */
export async function changePlant(store: PlantStore, patch: Patch): Promise<{ plant: NewPlant; changed: boolean }> {
  const [outcome] = await store.patchAll([patch]);
  if (outcome === 'absent') throw noSuchPlant(patch.id);
  if (outcome === 'mismatch') throw preconditionFailed(patch.id);
  if (outcome === undefined) throw new Error('the store gave no outcome for the patch');
  return outcome;
}
