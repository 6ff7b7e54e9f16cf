import { join } from 'node:path';
import { FileStore } from '../../src/store/file/file-store.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { describeStoreConformance } from '../helpers/store-conformance.js';
import { tempDir } from '../helpers/temp.js';

// A plants serve, through the client, is held to the same in test/e2e/served-store-conformance.test.ts.
describeStoreConformance('the memory store', {
  async open() {
    const store = new MemoryStore();
    return { store, reopen: async () => store };
  },
});

describeStoreConformance('the JSON file store', {
  async open() {
    const path = join(await tempDir(), 'plants.json');
    // Folds at every write: the store file is read and written, not only the journal.
    return { store: await FileStore.open(path, { checkpointAt: 0 }), reopen: () => FileStore.open(path) };
  },
});
