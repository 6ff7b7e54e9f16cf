import { ERROR_NUMBERS, isPlantsError, type PlantsError } from './errors.js';
import { IdSet } from './id-map.js';
import type { NewPlant } from './schemas.js';

/**
 * What happened to one plant handed to a store to add: added; a duplicate (its id taken, in the
 * store or earlier in the same call); or refused for a reason the store gives in its own words: a
 * service's 400, its Error kept (a duplicate id among them, error 1002: see isDuplicate).
 */
export type AddOutcome = 'added' | 'duplicate' | PlantsError;

/** Whether an add's outcome says the id was taken: a duplicate, or a refusal numbered as one. */
export function isDuplicate(outcome: AddOutcome): boolean {
  return outcome === 'duplicate' || (isPlantsError(outcome) && outcome.error === ERROR_NUMBERS.duplicate_id);
}

/** What happened to one id handed to a store to delete. */
export type DeleteOutcome = 'deleted' | 'absent';

/** A page of plants, in id order. */
export interface ListQuery {
  /** Only plants whose id is greater than this: the last id of the page before. */
  after?: bigint;
  /** At most this many plants. */
  limit: number;
  /** Only plants with exactly this tag. */
  tag?: string;
}

/**
 * Where plants are kept: the one interface the CLI, the server and import use, whichever store is
 * behind it (the JSON file store, the in-memory store of the tests). Writes resolve only once
 * durable; they fail with a PlantsError whose `effect` says whether they may have taken effect.
 */
export interface PlantStore {
  /**
   * Adds the plants in order; a plant whose id is taken (by the store or earlier in the same call)
   * is not added. One outcome per plant.
   */
  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]>;
  /** Deletes the plants with these ids, in order; an id not there (or deleted earlier in the call) is absent. */
  deleteAll(ids: readonly bigint[]): Promise<DeleteOutcome[]>;
  get(id: bigint): Promise<NewPlant | undefined>;
  /** A page of plants in id order: paging by `after` is stable under concurrent writes. */
  list(query: ListQuery): Promise<NewPlant[]>;
  /**
   * Runs `work` holding the store for writing: the writes it makes through `writer` share one hold
   * (the file store's lock, taken once before them and let go after). For whoever batches writes:
   * a server's batches while requests keep coming, an import's batch. A store with nothing to hold
   * runs `work` on itself.
   */
  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T>;
  /** Releases what the store holds (files, connections); after it, the store is not used again. */
  close(): Promise<void>;
}

/** The writes of a store, as `hold` hands them on. */
export type PlantWriter = Pick<PlantStore, 'addAll' | 'deleteAll'>;

/**
 * The outcome of each add, decided the one way every store decides it, so that they agree: a
 * plant whose id is there, or was added earlier in the same call, is a duplicate.
 */
export function decideAdds(plants: readonly NewPlant[], has: (id: bigint) => boolean): AddOutcome[] {
  const added = new IdSet();
  return plants.map(({ id }) => {
    if (added.has(id) || has(id)) return 'duplicate';
    added.add(id);
    return 'added';
  });
}

/** The outcome of each delete: an id not there, or deleted earlier in the same call, is absent. */
export function decideDeletes(ids: readonly bigint[], has: (id: bigint) => boolean): DeleteOutcome[] {
  const deleted = new IdSet();
  return ids.map((id) => {
    if (deleted.has(id) || !has(id)) return 'absent';
    deleted.add(id);
    return 'deleted';
  });
}
