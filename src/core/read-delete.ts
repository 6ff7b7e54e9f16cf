import { PlantsError } from './errors.js';
import type { NewPlant } from './schemas.js';
import type { Expectation, PlantStore } from './store.js';

/**
 * The read and delete logic, the same for `--local` and the server (as create.ts is for
 * creates): no plant with the id is `not_found`; one not in the state a precondition names,
 * `precondition_failed`.
 */
export async function getPlant(store: PlantStore, id: bigint): Promise<NewPlant> {
  const plant = await store.get(id);
  if (plant === undefined) throw noSuchPlant(id);
  return plant;
}

/** Deletes the plant, held to `expect` if given: one not in that state is `precondition_failed`. */
export async function deletePlant(store: PlantStore, id: bigint, expect?: Expectation): Promise<void> {
  const [outcome] = await store.deleteAll([expect === undefined ? id : { id, expect }]);
  if (outcome === 'absent') throw noSuchPlant(id);
  if (outcome === 'mismatch') throw preconditionFailed(id);
}

export function noSuchPlant(id: bigint): PlantsError {
  return new PlantsError('not_found', `no plant with id ${id}`);
}

/** A write held to a precondition (If-Match, If-None-Match) the plant does not meet: nothing changed. */
export function preconditionFailed(id: bigint): PlantsError {
  return new PlantsError(
    'precondition_failed',
    `the plant ${id} is not in the state the request expects (If-Match, If-None-Match): nothing was changed`,
    {
      hint: 'read the plant again (plants get), and change it as it now is',
    },
  );
}
