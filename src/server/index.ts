// The service's public API, for the `plants serve` command and the tests.
export { createPlantServer, DEFAULT_LIMITS, type PlantServerLimits, type PlantServerOptions } from './app.js';
export { BatchingStore } from './batching-store.js';
export { listen, stopServer, isStopping, type ListeningAddress, type StopOptions } from './lifecycle.js';
export { StoreOutage, watchWrites } from './store-outage.js';
export { AcceptOutage, type ConnectionCap } from './accept-outage.js';
