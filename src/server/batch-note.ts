import type { PlantStore, PlantWriter } from '../core/store.js';
import { batchSizeOf } from './batching-store.js';

/**
 * `store` for one request: it tells `onBatch` the size of the batch its write went in (the log
 * line's batchSize). The outcomes pass through untouched: the size rides beside them (batchSizeOf).
 */
export function notingBatches(store: PlantStore, onBatch: (size: number) => void): PlantStore {
  const note = <T extends readonly unknown[]>(outcomes: T): T => {
    const size = batchSizeOf(outcomes);
    if (size !== undefined) onBatch(size);
    return outcomes;
  };
  const noting = (writer: PlantWriter): PlantWriter => ({
    addAll: async (plants) => note(await writer.addAll(plants)),
    putAll: async (puts) => note(await writer.putAll(puts)),
    patchAll: async (patches) => note(await writer.patchAll(patches)),
    deleteAll: async (targets) => note(await writer.deleteAll(targets)),
  });
  return {
    ...noting(store),
    hold: (work) => store.hold((writer) => work(noting(writer))),
    get: (id) => store.get(id),
    list: (query) => store.list(query),
    count: (filter) => store.count(filter),
    probe: () => store.probe(),
    close: () => store.close(),
  };
}
