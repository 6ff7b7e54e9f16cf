import type { NewPlant, Plant } from '../core/schemas.js';
import type {
  DeleteOutcome,
  Expectation,
  ListQuery,
  Patch,
  PatchOutcome,
  PlantFilter,
  Put,
  PutOutcome,
} from '../core/store.js';
import type { RetryPolicy } from './retry.js';

export interface PlantsClientOptions {
  baseUrl: string;
  token: string;
  timeoutSeconds: number;
  /** HTTP(S)_PROXY and NO_PROXY, upper or lower case, as in the environment. */
  env: Readonly<Record<string, string | undefined>>;
  userAgent: string;
  /** Keep-alive connections to the service (bulk imports use many). Default 1. */
  connections?: number;
  /**
   * Told when this process had no descriptor left for another connection (ulimit -n): the pool
   * goes on with the `connections` it has open.
   */
  onFewerConnections?: (connections: number) => void;
  /** Default: no retry. */
  retry?: RetryPolicy;
  /** Where each request and answer is written as it goes (PLANTS_DEBUG=api): a debugging trace. */
  trace?: (text: string) => void;
  /**
   * Aborted: no request is sent any more, and those in flight are abandoned (a second Ctrl-C of an
   * import): each fails as `interrupted`, with effect `none` if it was never sent.
   */
  stop?: AbortSignal;
}

/**
 * The service's operations, as a client sends them: the contract's create, and the extensions.
 * A request is sent again only as the retry policy allows, where it cannot have been processed
 * (retry.ts). Failures are PlantsErrors whose `effect` says whether the request may have been.
 */
export interface PlantsClient {
  createPlant(plant: NewPlant): Promise<Plant>;
  /** Undefined for no such plant (404). */
  getPlant(id: bigint): Promise<NewPlant | undefined>;
  /** GET /plants: a page, checked against what was asked (page-check.ts). */
  listPlants(query: ListQuery): Promise<NewPlant[]>;
  /** GET /plants/count: how many plants match, a whole number from 0. */
  countPlants(filter: PlantFilter): Promise<number>;
  /** PUT /plants/{id}: the plant created or replaced, held to its precondition. */
  putPlant(put: Put): Promise<PutOutcome>;
  /** PATCH /plants/{id}, a JSON Merge Patch: the fields given changed, held to its precondition. */
  patchPlant(patch: Patch): Promise<PatchOutcome>;
  deletePlant(id: bigint, expect?: Expectation): Promise<DeleteOutcome>;
  /**
   * Whether the service accepts the token, with no effect on its store: a POST of `{}`, which it
   * must refuse with 400 once the token is good, and with 401 (or 403) when it is not.
   */
  checkToken(): Promise<'accepted' | 'refused'>;
  close(): Promise<void>;
}
