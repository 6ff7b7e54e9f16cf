import type { NewPlant } from '../core/schemas.js';
import { decideAdds, decideDeletes, type AddOutcome, type DeleteOutcome, type ListQuery, type PlantStore, type PlantWriter } from '../core/store.js';

/** A PlantStore in memory: for tests, and the model the other stores must behave like. */
export class MemoryStore implements PlantStore {
  readonly plants = new Map<bigint, NewPlant>();

  async addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    const outcomes = decideAdds(plants, (id) => this.plants.has(id));
    plants.forEach((plant, i) => outcomes[i] === 'added' && this.plants.set(plant.id, plant));
    return outcomes;
  }

  async deleteAll(ids: readonly bigint[]): Promise<DeleteOutcome[]> {
    const outcomes = decideDeletes(ids, (id) => this.plants.has(id));
    ids.forEach((id, i) => outcomes[i] === 'deleted' && this.plants.delete(id));
    return outcomes;
  }

  async get(id: bigint): Promise<NewPlant | undefined> {
    return this.plants.get(id);
  }

  async list({ after, limit, tag }: ListQuery): Promise<NewPlant[]> {
    const ids = [...this.plants.keys()].filter((id) => after === undefined || id > after).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const page: NewPlant[] = [];
    for (const id of ids) {
      if (page.length >= limit) break;
      const plant = this.plants.get(id) as NewPlant;
      if (tag === undefined || plant.tag === tag) page.push(plant);
    }
    return page;
  }

  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    return work(this);
  }

  async close(): Promise<void> {}
}
