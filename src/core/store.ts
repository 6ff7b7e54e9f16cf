import { ERROR_NUMBERS, isPlantsError, type PlantsError } from './errors.js';
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

/**
 * What a write holds a plant to before it is made (HTTP's preconditions): absent (`If-None-Match:
 * *`), present (`If-Match: *`), or in a state one of these ETags names (`If-Match`: core/etag.ts).
 * A write whose plant is not so changes nothing: its outcome is `mismatch`.
 */
export type Expectation = 'absent' | 'present' | { etags: readonly string[] };

/** A plant to delete, held to a precondition. */
export interface Removal {
  id: bigint;
  expect?: Expectation;
}

/** What happened to one plant handed to a store to delete. */
export type DeleteOutcome = 'deleted' | 'absent' | 'mismatch';

/** A plant to create or replace whole (PUT), held to a precondition if `expect`. */
export interface Put {
  plant: NewPlant;
  expect?: Expectation;
}

/**
 * What happened to one put: created, updated, unchanged (the same plant was stored: nothing written), or its
 * precondition failed.
 */
export type PutOutcome = 'created' | 'updated' | 'unchanged' | 'mismatch';

/**
 * A change to some fields of a stored plant, as a JSON Merge Patch (RFC 7396) gives them: a new
 * name, a new tag, or no tag (`null`); a field not given stays as it is.
 */
export interface Patch {
  id: bigint;
  name?: string;
  tag?: string | null;
  expect?: Expectation;
}

/** What happened to one patch: the plant as it now is (`changed` false: it was so already), or nothing done. */
export type PatchOutcome = { plant: NewPlant; changed: boolean } | 'absent' | 'mismatch';

/** Which plants a list or a count is of: all, or those that match each filter given. */
export interface PlantFilter {
  /** Only plants with exactly this tag. */
  tag?: string;
  /** Only plants whose name holds this text, as name-search.ts defines it (case aside). */
  search?: string;
}

/** A page of plants, in id order. */
export interface ListQuery extends PlantFilter {
  /** Only plants whose id is greater than this: the last id of the page before. */
  after?: bigint;
  /** At most this many plants. */
  limit: number;
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
  /**
   * Creates or replaces the plants in order, each where its precondition holds. One outcome per
   * put; a put sees the ones before it in the same call.
   */
  putAll(puts: readonly Put[]): Promise<PutOutcome[]>;
  /** Changes the fields each patch gives of a stored plant, in order: one outcome per patch. */
  patchAll(patches: readonly Patch[]): Promise<PatchOutcome[]>;
  /**
   * Deletes the plants with these ids (each held to a precondition, for a Removal), in order; an
   * id not there, or deleted earlier in the call, is absent.
   */
  deleteAll(targets: readonly (bigint | Removal)[]): Promise<DeleteOutcome[]>;
  get(id: bigint): Promise<NewPlant | undefined>;
  /** A page of plants in id order: paging by `after` is stable under concurrent writes. */
  list(query: ListQuery): Promise<NewPlant[]>;
  /** How many plants match the filter, now. */
  count(filter: PlantFilter): Promise<number>;
  /**
   * Runs `work` holding the store for writing: the writes it makes through `writer` share one hold
   * (the file store's lock, taken once before them and let go after). For whoever batches writes:
   * a server's batches while requests keep coming, an import's batch. A store with nothing to hold
   * runs `work` on itself.
   */
  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T>;
  /**
   * Resolves where the store would take a write now, changing no plant; throws why not (a full disk, a lock held too
   * long, a database away). What a server whose store is out asks while no request comes to find out that it is back.
   */
  probe(): Promise<void>;
  /** Releases what the store holds (files, connections); after it, the store is not used again. */
  close(): Promise<void>;
}

/** The writes of a store, as `hold` hands them on. */
export type PlantWriter = Pick<PlantStore, 'addAll' | 'putAll' | 'patchAll' | 'deleteAll'>;
