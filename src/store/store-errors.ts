import { PlantsError } from '../core/errors.js';

export function storeIoError(path: string, action: string, error: unknown): PlantsError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new PlantsError('store_io', `could not ${action} the store ${path} (${reason})`, { cause: error });
}

export function storeCorruptError(path: string, why: string): PlantsError {
  return new PlantsError('store_corrupt', `${path} is not a usable plants store: ${why}; it was left untouched`, {
    hint: 'point --store (or PLANTS_STORE) at another file, or repair or move this one',
  });
}
