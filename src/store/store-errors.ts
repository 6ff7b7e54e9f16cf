import { PlantsError } from '../core/errors.js';

export function storeIoError(path: string, action: string, error: unknown): PlantsError {
  return new PlantsError('store_io', `could not ${action} the store ${path} (${reasonOf(error)})`, { cause: error });
}

/** A failure after the store may already hold the plants: they may or may not be stored. */
export function storeMaybeWrittenError(path: string, action: string, error: unknown): PlantsError {
  return new PlantsError('store_io', `could not ${action} the store ${path} (${reasonOf(error)}): the plants may or may not be stored`, {
    cause: error,
    mayHaveTakenEffect: true,
  });
}

function reasonOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

export function storeCorruptError(path: string, why: string): PlantsError {
  return new PlantsError('store_corrupt', `${path} is not a usable plants store: ${why}; it was left untouched`, {
    hint: 'point --store (or PLANTS_STORE) at another file, or repair or move this one',
  });
}
