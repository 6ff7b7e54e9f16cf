import { usesProxy, type PlantsClient, type PlantsClientOptions } from './client-options.js';

/**
 * The HTTP client for these options. One plain request (a `plants create`) goes through
 * node:http: the npm undici package costs ~90 ms to load, most of a create's time. Anything more
 * (a proxy from the environment, a pool of connections, retries) loads undici.
 */
export async function createPlantsClient(options: PlantsClientOptions): Promise<PlantsClient> {
  const needsUndici = (options.connections ?? 1) > 1 || (options.retry?.tries ?? 1) > 1 || usesProxy(options.env);
  if (needsUndici) return (await import('./undici-client.js')).createUndiciClient(options);
  return await (await import('./http-client.js')).createHttpClient(options);
}
