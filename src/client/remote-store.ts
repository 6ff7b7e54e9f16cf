import { isPlantsError } from '../core/errors.js';
import type { NewPlant } from '../core/schemas.js';
import { filterTest } from '../core/plant-filter.js';
import type {
  AddOutcome,
  DeleteOutcome,
  ListQuery,
  Patch,
  PatchOutcome,
  PlantFilter,
  PlantStore,
  PlantWriter,
  Put,
  PutOutcome,
  Removal,
} from '../core/store.js';
import type { PlantsClient } from './client-options.js';

/** A UTF-16 code unit that is half of a pair, alone: no UTF-8 (and so no URL) can carry it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Plants read a page at a time where a filter must be applied here: the most a service's page holds. */
const UNFILTERED_PAGE = 1_000;

/**
 * The store a service is, through the client: so that a command runs the core's logic once,
 * whether its store is the local file or a service. Not atomic over many plants, as the local
 * stores are: each write sends a request a plant, in order; a plant the service
 * refuses is that plant's outcome, in the service's words (a duplicate among them: error 1002);
 * a failure to get an answer stops the call and is thrown (the plants before it are done, and the
 * one sent may have been: its `effect` says).
 */
export class RemoteStore implements PlantStore {
  constructor(private readonly client: PlantsClient) {}

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    const outcomes: AddOutcome[] = [];
    for (const plant of plants) {
      try {
        await this.client.createPlant(plant);
        outcomes.push('added');
      } catch (error) {
        if (!isPlantsError(error) || error.code !== 'refused') throw error;
        outcomes.push(error);
      }
    }
    return outcomes;
  }

  async putAll(puts: readonly Put[]): Promise<PutOutcome[]> {
    const outcomes: PutOutcome[] = [];
    for (const put of puts) outcomes.push(await this.client.putPlant(put));
    return outcomes;
  }

  async patchAll(patches: readonly Patch[]): Promise<PatchOutcome[]> {
    const outcomes: PatchOutcome[] = [];
    for (const patch of patches) outcomes.push(await this.client.patchPlant(patch));
    return outcomes;
  }

  async deleteAll(targets: readonly (bigint | Removal)[]): Promise<DeleteOutcome[]> {
    const outcomes: DeleteOutcome[] = [];
    for (const target of targets)
      outcomes.push(
        typeof target === 'bigint'
          ? await this.client.deletePlant(target)
          : await this.client.deletePlant(target.id, target.expect),
      );
    return outcomes;
  }

  get(id: bigint): Promise<NewPlant | undefined> {
    return this.client.getPlant(id);
  }

  /**
   * A page, as the service gives it. A tag or a search no URL can carry (a lone surrogate: a query
   * is UTF-8, which has no form for one) is not sent: the pages after `after` are read with the
   * rest of the filter and filtered here, until the page is full.
   */
  async list(query: ListQuery): Promise<NewPlant[]> {
    const { sent, here } = splitFilter(query);
    if (here === undefined) return await this.client.listPlants(query);
    const keeps = await filterTest(here);
    const page: NewPlant[] = [];
    for (let after = query.after; page.length < query.limit;) {
      const read = await this.listSent(sent, after);
      page.push(...read.filter(keeps).slice(0, query.limit - page.length));
      if (read.length < UNFILTERED_PAGE) break;
      after = (read[read.length - 1] as NewPlant).id;
    }
    return page;
  }

  /** As the service counts (GET /plants/count); a filter no URL can carry, counted here over every page of the rest. */
  async count(filter: PlantFilter): Promise<number> {
    const { sent, here } = splitFilter(filter);
    if (here === undefined) return await this.client.countPlants(filter);
    const keeps = await filterTest(here);
    let count = 0;
    for (let after: bigint | undefined; ;) {
      const read = await this.listSent(sent, after);
      count += read.filter(keeps).length;
      if (read.length < UNFILTERED_PAGE) return count;
      after = (read[read.length - 1] as NewPlant).id;
    }
  }

  /** A page of the most a service's page holds, after `after`, filtered by what a URL can carry. */
  private listSent(sent: PlantFilter, after: bigint | undefined): Promise<NewPlant[]> {
    return this.client.listPlants({ ...sent, limit: UNFILTERED_PAGE, ...(after === undefined ? {} : { after }) });
  }

  /** The service batches and locks on its side: there is nothing to hold here. */
  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    return work(this);
  }

  /** The service answers a read: whether it takes a write is its own to say (its /readyz). */
  async probe(): Promise<void> {
    await this.client.listPlants({ limit: 1 });
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** A filter as the parts a URL can carry (sent) and the rest (here: undefined where there is none). */
function splitFilter({ tag, search }: PlantFilter): { sent: PlantFilter; here: PlantFilter | undefined } {
  const sent: PlantFilter = {};
  const here: PlantFilter = {};
  if (tag !== undefined) (LONE_SURROGATE.test(tag) ? here : sent).tag = tag;
  if (search !== undefined) (LONE_SURROGATE.test(search) ? here : sent).search = search;
  return { sent, here: Object.keys(here).length === 0 ? undefined : here };
}
