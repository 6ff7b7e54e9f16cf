import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { createPlantsClient } from '../../src/client/plants-client.js';
import { RemoteStore } from '../../src/client/remote-store.js';
import { FileStore } from '../../src/store/file/file-store.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { describeStoreConformance } from '../helpers/store-conformance.js';
import { startServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';

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

describeStoreConformance('the store a plants serve is, through the client', {
  async open() {
    // A real plants serve on a fresh store, stopped when the test ends.
    const server = await startServer(await tempDir());
    onTestFinished(() => void server.stop());
    const client = () => createPlantsClient({ baseUrl: server.url, token: server.token, timeoutSeconds: 30, env: {}, userAgent: 'plants-test' });
    return { store: new RemoteStore(await client()), reopen: async () => new RemoteStore(await client()) };
  },
});
