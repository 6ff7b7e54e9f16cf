import { PlantsError } from '../../../core/errors.js';
import { ioReason, isOutOfDescriptors } from '../../../fs/io-reason.js';
import type { PoolStats } from '../../../server/metrics.js';
import type { AcceptOutage, ListeningAddress, StoreOutage } from '../../../server/index.js';
import type { BatchObserver, RequestObserver } from '../../../server/observer.js';
import type { Context } from '../../context.js';
import { portOf } from './admin-flags.js';
import { OPEN_FILES_HINT } from './open-files.js';

/** The options of serve that place its admin listener (--admin-port, --admin-host). */
export interface AdminOptions {
  adminPort?: number;
  adminHost?: string;
}

/** The admin listener, once asked for: the metrics to hand the server and the store, then start(). */
export interface Admin {
  observer: RequestObserver;
  onBatch: BatchObserver;
  /** Listens; rejects with a usage error when it cannot. */
  start(): Promise<ListeningAddress>;
  /** The most connections it takes, where descriptors are few (open-files.ts). */
  capConnections(connections: number): void;
  stop(): Promise<void>;
}

export interface AdminState {
  outage: StoreOutage;
  /** The service listener's refusals of connections. */
  accepting: AcceptOutage;
  /** True from the stop signal on: /readyz answers 503. */
  stopping(): boolean;
  /** The store, for its pool's figures if it is a database's. */
  store: object;
  onUnexpectedError(error: unknown): void;
}

/** Where the admin listener goes: --admin-port, else PLANTS_ADMIN_PORT; undefined when neither is set. */
export function adminAddress(options: AdminOptions, ctx: Context): { port: number; host: string } | undefined {
  const envPort = ctx.env.PLANTS_ADMIN_PORT ?? '';
  const port = options.adminPort ?? (envPort === '' ? undefined : portOf(envPort, 'PLANTS_ADMIN_PORT'));
  if (port instanceof Error) throw port;
  if (port === undefined) return undefined;
  return { port, host: options.adminHost ?? (ctx.env.PLANTS_ADMIN_HOST || '127.0.0.1') };
}

/**
 * Loads the admin listener and prom-client: only here, so a serve without an admin port, and every
 * other command, load neither.
 */
export async function prepareAdmin(address: { port: number; host: string }, state: AdminState): Promise<Admin> {
  const [{ createAdminServer }, { ServiceMetrics }, { listen, stopServer }] = await Promise.all([
    import('../../../server/admin.js'),
    import('../../../server/metrics.js'),
    import('../../../server/lifecycle.js'),
  ]);
  const poolStats = poolStatsOf(state.store);
  const metrics = new ServiceMetrics({ outage: state.outage, ...(poolStats === undefined ? {} : { poolStats }) });
  const server = createAdminServer({
    readiness: () => {
      if (state.stopping()) return { ready: false, reason: 'stopping' };
      if (state.outage.isOut) return { ready: false, reason: 'the store is unavailable' };
      return state.accepting.isOut ? { ready: false, reason: state.accepting.reason } : { ready: true };
    },
    metrics: async () => ({ contentType: metrics.contentType, text: await metrics.text() }),
    onUnexpectedError: state.onUnexpectedError,
  });
  return {
    observer: metrics,
    onBatch: metrics.batchWritten,
    async start() {
      try {
        return await listen(server, address.port, address.host);
      } catch (error) {
        const hint = isOutOfDescriptors(error) ? { hint: OPEN_FILES_HINT } : {};
        throw new PlantsError(
          'usage',
          `cannot listen on ${address.host}:${address.port} (the admin port): ${ioReason(error)}`,
          { cause: error, ...hint },
        );
      }
    },
    capConnections: (connections) => void (server.maxConnections = connections),
    stop: () => stopServer(server),
  };
}

/** A store's poolStats (PostgresStore's), if it has one. */
function poolStatsOf(store: object): (() => PoolStats) | undefined {
  const candidate = store as { poolStats?: unknown };
  return typeof candidate.poolStats === 'function'
    ? () => (candidate.poolStats as () => PoolStats).call(store)
    : undefined;
}
