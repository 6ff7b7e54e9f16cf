import type { PlantStore } from '../core/store.js';
import type { Context } from './context.js';
import type { Target } from './target-flags.js';
import { openLocalStore, serviceClient, targetSettings } from './target.js';

/** Where a command's store is: the store file, or the service's base URL (what its output names). */
export interface TargetStore {
  store: PlantStore;
  where: string;
}

/**
 * The store a command line targets, for `work` to run the core on, closed after: the local file
 * store with `--local`, else the service as a store (RemoteStore). So that each command calls
 * the core once, the same for both.
 */
export async function withTargetStore<T>(
  target: Target,
  ctx: Context,
  work: (target: TargetStore) => Promise<T>,
  options: { makes?: boolean } = {},
): Promise<T> {
  const opened = await openTargetStore(target, ctx, options);
  try {
    return await work(opened);
  } finally {
    await opened.store.close();
  }
}

/**
 * The store a command line targets, opened: its caller closes it. `makes`: the command may make a local store where
 * there is none.
 */
export async function openTargetStore(target: Target, ctx: Context, { makes = false } = {}): Promise<TargetStore> {
  const settings = await targetSettings(target, ctx);
  if (target.local) {
    const { store, path } = await openLocalStore(settings, ctx, { makes });
    return { store, where: path };
  }
  const { client, baseUrl } = await serviceClient(settings, ctx);
  const { RemoteStore } = await import('../client/remote-store.js');
  return { store: new RemoteStore(client), where: baseUrl };
}
