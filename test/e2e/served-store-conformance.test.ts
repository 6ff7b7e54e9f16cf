import { onTestFinished } from 'vitest';
import { createPlantsClient } from '../../src/client/plants-client.js';
import { RemoteStore } from '../../src/client/remote-store.js';
import { describeSearchConformance } from '../helpers/search-conformance.js';
import { describeStoreConformance, type StoreMaker } from '../helpers/store-conformance.js';
import { startServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';

// The stores in-process are held to the same in test/store/store-conformance.test.ts.
const served: StoreMaker = {
  async open() {
    // A real plants serve on a fresh store, stopped when the test ends.
    const server = await startServer(await tempDir());
    onTestFinished(() => void server.stop());
    const client = () =>
      createPlantsClient({
        baseUrl: server.url,
        token: server.token,
        timeoutSeconds: 30,
        env: {},
        userAgent: 'plants-test',
      });
    return { store: new RemoteStore(await client()), reopen: async () => new RemoteStore(await client()) };
  },
};
describeStoreConformance('the store a plants serve is, through the client', served);
describeSearchConformance('the store a plants serve is, through the client', served);
