import type { CheckedPlant } from './new-plant.js';

/**
 * The check of a NewPlant (new-plant.ts, by its zod schema) for the store's readers, loaded the
 * first time one meets a line the fast parsers of plant-json.ts do not read: one not in canonical
 * form (a file edited by hand). A store in our layout is read without loading zod.
 *
 * The store's readers are synchronous, and a module is loaded asynchronously: a reader that needs
 * the check before it is loaded throws PlantCheckNotLoaded, and the store's operation, run by
 * withPlantCheck, runs again once it is. An operation of the store is safe to run again from its
 * start: it reads every line it needs before it changes anything on disk.
 */
export type PlantCheck = (value: unknown) => CheckedPlant;

let loaded: PlantCheck | undefined;

/** Thrown where the check is needed before it is loaded: withPlantCheck loads it and runs its work again. */
export class PlantCheckNotLoaded extends Error {
  constructor() {
    super('the check of a plant is not loaded: run the work through withPlantCheck');
    this.name = 'PlantCheckNotLoaded';
  }
}

/** The check, if it is loaded; else throws PlantCheckNotLoaded. */
export function loadedPlantCheck(): PlantCheck {
  if (loaded === undefined) throw new PlantCheckNotLoaded();
  return loaded;
}

/** `value` checked as a NewPlant, where the check is loaded (else throws PlantCheckNotLoaded). */
export function checkLoaded(value: unknown): CheckedPlant {
  return loadedPlantCheck()(value);
}

/** Loads the check, for a reader that knows it will need it. */
export async function loadPlantCheck(): Promise<void> {
  loaded ??= (await import('./new-plant.js')).checkNewPlant;
}

/** Runs `work`; where it needed the check before it was loaded, loads it and runs `work` again. */
export async function withPlantCheck<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof PlantCheckNotLoaded)) throw error;
  }
  await loadPlantCheck();
  return await work();
}
