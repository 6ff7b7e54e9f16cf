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
import { MemoryStore } from './memory-store.js';

/**
 * A store that hands every call to `inner` (a memory store by default): a base for test doubles that change one call.
 */
export class DelegatingStore implements PlantStore {
  constructor(protected readonly inner: PlantStore = new MemoryStore()) {}
  addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    return this.inner.addAll(plants);
  }
  putAll(puts: readonly Put[]): Promise<PutOutcome[]> {
    return this.inner.putAll(puts);
  }
  patchAll(patches: readonly Patch[]): Promise<PatchOutcome[]> {
    return this.inner.patchAll(patches);
  }
  deleteAll(targets: readonly (bigint | Removal)[]): Promise<DeleteOutcome[]> {
    return this.inner.deleteAll(targets);
  }
  get(id: bigint): Promise<NewPlant | undefined> {
    return this.inner.get(id);
  }
  list(query: ListQuery): Promise<NewPlant[]> {
    return this.inner.list(query);
  }
  count(filter: PlantFilter): Promise<number> {
    return this.inner.count(filter);
  }
  hold<T>(work: (writer: PlantWriter) => Promise<T>): Promise<T> {
    return work(this);
  }
  probe(): Promise<void> {
    return this.inner.probe();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A memory store with some of its calls replaced. */
export function storeWith(calls: Partial<PlantStore>, inner: PlantStore = new MemoryStore()): PlantStore {
  const store = new DelegatingStore(inner);
  return Object.assign(store, calls);
}
