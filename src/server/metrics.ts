import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestObserver } from './observer.js';

/** The pool of a database store: what PostgresStore.poolStats tells. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/** What the metrics read as they are scraped, not as things happen: nothing is paid for them between scrapes. */
export interface MetricSources {
  outage: { readonly isOut: boolean; readonly refusedTotal: number };
  /** The database pool's clients; absent for a file store. */
  poolStats?: () => PoolStats;
}

/** Methods the service has; any other is counted as `other`, so a client cannot add series. */
const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/** Seconds: a durable write is an fsync or a transaction (milliseconds), a slow one a disk in trouble. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

/**
 * The service's metrics, in a registry of their own, in the Prometheus text format (prom-client).
 * Loaded only with the admin listener on: a serve without it, and every other command, never load
 * prom-client. Labels are bounded: the route is a template, the method one of METHODS or `other`.
 */
export class ServiceMetrics implements RequestObserver {
  readonly registry = new Registry();
  private inFlight = 0;
  private readonly latency: Histogram<'route'>;
  private readonly batchSizes: Histogram;
  private readonly commits: Histogram;
  /**
   * Requests counted since the last scrape, by method, route and status: added to prom-client's
   * counter as it is scraped, since its inc hashes the label set on every call.
   */
  private readonly counted = new Map<
    string,
    { labels: Record<'method' | 'route' | 'status', string>; count: number }
  >();
  /** Label-bound children by route. */
  private readonly timed = new Map<string, Histogram.Internal<'route'>>();

  constructor(sources: MetricSources) {
    const registers = [this.registry];
    const inFlight = () => this.inFlight;
    const counted = this.counted;
    new Counter({
      name: 'plants_http_requests_total',
      help: 'Requests answered, by method, route and status',
      labelNames: ['method', 'route', 'status'],
      registers,
      collect() {
        for (const entry of counted.values()) {
          if (entry.count > 0) this.inc(entry.labels, entry.count);
          entry.count = 0;
        }
      },
    });
    this.latency = new Histogram({
      name: 'plants_http_request_duration_seconds',
      help: 'Time from a request to the end of its answer, by route',
      labelNames: ['route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'plants_http_requests_in_flight',
      help: 'Requests being answered now',
      registers,
      collect() {
        this.set(inFlight());
      },
    });
    this.batchSizes = new Histogram({
      name: 'plants_store_batch_size',
      help:
        'Plants (or ids) written by one write of the store: requests that arrived while the one before was ' +
        'written go together',
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.commits = new Histogram({
      name: 'plants_store_commit_duration_seconds',
      help: 'Time for one write of the store to be durable (fsync, or a transaction)',
      buckets: LATENCY_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'plants_store_outage',
      help:
        '1 while the store cannot be used (a full disk, a lock held too long, a database that does not answer), ' +
        'else 0',
      registers,
      collect() {
        this.set(sources.outage.isOut ? 1 : 0);
      },
    });
    new Counter({
      name: 'plants_store_refused_requests_total',
      help: 'Requests refused with 503 because the store could not be used',
      registers,
      collect() {
        this.reset();
        this.inc(sources.outage.refusedTotal);
      },
    });
    const poolStats = sources.poolStats;
    if (poolStats !== undefined) {
      new Gauge({
        name: 'plants_pg_pool_clients',
        help: 'PostgreSQL pool clients, by state: total, idle, and calls waiting for a client',
        labelNames: ['state'],
        registers,
        collect() {
          const { total, idle, waiting } = poolStats();
          this.set({ state: 'total' }, total);
          this.set({ state: 'idle' }, idle);
          this.set({ state: 'waiting' }, waiting);
        },
      });
    }
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text a scrape gets. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  requestStarted(): void {
    this.inFlight += 1;
  }

  requestEnded(method: string, route: string, status: number | undefined, seconds: number): void {
    this.inFlight -= 1;
    const shownMethod = METHODS.has(method) ? method : 'other';
    const shownStatus = status === undefined ? 'none' : String(status);
    const key = `${shownMethod} ${route} ${shownStatus}`;
    const entry = this.counted.get(key);
    if (entry === undefined)
      this.counted.set(key, { labels: { method: shownMethod, route, status: shownStatus }, count: 1 });
    else entry.count += 1;
    let histogram = this.timed.get(route);
    if (histogram === undefined) this.timed.set(route, (histogram = this.latency.labels(route)));
    histogram.observe(seconds);
  }

  /** A BatchObserver for the batching store. */
  readonly batchWritten = (size: number, seconds: number): void => {
    this.batchSizes.observe(size);
    this.commits.observe(seconds);
  };
}
