import { decideAdds, decideDeletes, decidePatches, decidePuts, etagOfFor, targetId } from '../../src/core/decide.js';
import { filterTest } from '../../src/core/plant-filter.js';
import type { NewPlant } from '../../src/core/schemas.js';
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
} from '../../src/core/store.js';

/** A PlantStore in memory: for tests, and the model the other stores must behave like. */
export class MemoryStore implements PlantStore {
  readonly plants = new Map<bigint, NewPlant>();

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    const outcomes = decideAdds(plants, (id) => this.plants.has(id));
    plants.forEach((plant, i) => outcomes[i] === 'added' && this.plants.set(plant.id, plant));
    return outcomes;
  }

  async putAll(puts: readonly Put[]): Promise<PutOutcome[]> {
    const { outcomes, writes } = decidePuts(puts, (id) => this.plants.get(id), await etagOfFor(puts));
    for (const plant of writes) this.plants.set(plant.id, plant);
    return outcomes;
  }

  async patchAll(patches: readonly Patch[]): Promise<PatchOutcome[]> {
    const { outcomes, writes } = decidePatches(patches, (id) => this.plants.get(id), await etagOfFor(patches));
    for (const plant of writes) this.plants.set(plant.id, plant);
    return outcomes;
  }

  async deleteAll(targets: readonly (bigint | Removal)[]): Promise<DeleteOutcome[]> {
    const outcomes = decideDeletes(
      targets,
      (id) => this.plants.has(id),
      (id) => this.plants.get(id),
      await etagOfFor(targets),
    );
    targets.forEach((target, i) => outcomes[i] === 'deleted' && this.plants.delete(targetId(target)));
    return outcomes;
  }

  async get(id: bigint): Promise<NewPlant | undefined> {
    return this.plants.get(id);
  }

  async list(query: ListQuery): Promise<NewPlant[]> {
    const { after, limit } = query;
    const keeps = await filterTest(query);
    const ids = [...this.plants.keys()]
      .filter((id) => after === undefined || id > after)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const page: NewPlant[] = [];
    for (const id of ids) {
      if (page.length >= limit) break;
      const plant = this.plants.get(id) as NewPlant;
      if (keeps(plant)) page.push(plant);
    }
    return page;
  }

  async count(filter: PlantFilter): Promise<number> {
    const keeps = await filterTest(filter);
    return [...this.plants.values()].filter(keeps).length;
  }

  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    return work(this);
  }

  async probe(): Promise<void> {}

  async close(): Promise<void> {}
}
