import { join } from 'node:path';
import { FileStore } from '../../src/store/file/file-store.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { describeSearchConformance } from '../helpers/search-conformance.js';
import { describeStoreConformance, type StoreMaker } from '../helpers/store-conformance.js';
import { tempDir } from '../helpers/temp.js';

// A plants serve, through the client, is held to the same in test/e2e/served-store-conformance.test.ts.
const memory: StoreMaker = {
  async open() {
    const store = new MemoryStore();
    return { store, reopen: async () => store };
  },
};
describeStoreConformance('the memory store', memory);
describeSearchConformance('the memory store', memory);

const folding: StoreMaker = {
  async open() {
    const path = join(await tempDir(), 'plants.json');
    // Folds at every write: the store file is read and written, not only the journal.
    return { store: await FileStore.open(path, { checkpointAt: 0 }), reopen: () => FileStore.open(path) };
  },
};
describeStoreConformance('the JSON file store', folding);
describeSearchConformance('the JSON file store (its database file)', folding);

// Never folds here: a search reads the plants of the journal.
describeSearchConformance('the JSON file store (its journal)', {
  async open() {
    const path = join(await tempDir(), 'plants.json');
    return { store: await FileStore.open(path), reopen: () => FileStore.open(path) };
  },
});
