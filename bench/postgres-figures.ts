import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase } from '../test/helpers/postgres.js';
import { benchDir } from './lib/fixtures.js';
import { figure, type Figure, type Sizes } from './lib/figure.js';
import { createsPerSecond, measuredServer } from './serve-figures.js';
import { cpuShares, postgresPids } from './lib/cpu.js';
import { median } from './lib/process.js';
import { plantsServe } from './lib/servers.js';

/**
 * Why figure 19 cannot be measured here, or undefined where it can: it needs pgbench, PostgreSQL's
 * own load tool, which comes with its client tools, not with the server a run may start itself.
 */
export function pgbenchMissing(): string | undefined {
  try {
    execFileSync('pgbench', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch (error) {
    return `no pgbench to run (${(error as Error).message}): install PostgreSQL's client tools`;
  }
}

/**
 * Durable creates per second of `plants serve` on PostgreSQL: one instance, and two on the same
 * database with the load spread over both, against one instance on the JSON file store, measured
 * in turns in the same run. For two instances, the share of a core each process used: on a small
 * machine the load generator, PostgreSQL and both instances share the same cores. Figure 19
 * (against pgbench) is left out where pgbench is missing: a full run checks for it first.
 */
export async function postgresThroughput(sizes: Sizes): Promise<Figure[]> {
  const missing = pgbenchMissing();
  if (missing !== undefined) process.stderr.write(`figure 19 (against pgbench) left out: ${missing}\n`);
  const db = await createTestDatabase();
  const fresh = () => db.query('DROP TABLE IF EXISTS plants');
  try {
    const one: number[] = [];
    const two: number[] = [];
    const json: number[] = [];
    const shares: Record<string, number>[] = [];
    const anchor: number[] = [];
    for (let i = 0; i < sizes.serveRuns; i += 1) {
      await fresh();
      one.push(await measuredServer(() => plantsServe({ database: db.url }), sizes.serveSeconds));
      if (missing === undefined) {
        // The table plants made, emptied, for PostgreSQL's own load tool.
        await db.query('TRUNCATE plants');
        await db.query('CREATE SEQUENCE IF NOT EXISTS plants_bench_ids');
        anchor.push(await pgbenchInserts(db.url, POOL_SIZE, sizes.serveSeconds));
      }
      json.push(await measuredServer(() => plantsServe(), sizes.serveSeconds));
      await fresh();
      const servers = [await plantsServe({ database: db.url }), await plantsServe({ database: db.url })] as const;
      try {
        const groups = {
          'instance 1': () => [servers[0].pid],
          'instance 2': () => [servers[1].pid],
          PostgreSQL: postgresPids,
        };
        const run = await cpuShares(groups, () => createsPerSecond([...servers], sizes.serveSeconds));
        two.push(run.result);
        shares.push(run.shares);
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
    const busy = Object.keys(shares[0] ?? {})
      .map((name) => `${name} ${median(shares.map((share) => share[name] ?? 0)).toFixed(2)}`)
      .join(', ');
    const againstPgbench = figure(
      19,
      'plants serve on PostgreSQL against pgbench: durable creates/s',
      'req/s',
      median(one),
      median(anchor),
      { op: '>=', value: 1, of: 'ratio' },
      `baseline: pgbench inserting one row a transaction into the same table, ${POOL_SIZE} clients (plants' ` +
        'pool), synchronous_commit on for both',
    );
    return [
      figure(
        9,
        'plants serve on PostgreSQL: durable creates/s, 50 connections',
        'req/s',
        median(one),
        median(json),
        { op: '>=', value: 0.8, of: 'ratio' },
        'baseline: plants serve on the JSON file store',
      ),
      ...(missing === undefined ? [againstPgbench] : []),
      figure(
        10,
        'two plants serve on one PostgreSQL, 50 connections over both',
        'req/s',
        median(two),
        median(json),
        null,
        `cores busy: ${busy}; baseline: one plants serve on the JSON file store`,
      ),
    ];
  } finally {
    await db.drop();
  }
}

/** The connections plants serve's PostgreSQL store keeps (its default pool). */
const POOL_SIZE = 10;

/**
 * Rows inserted per second by pgbench (PostgreSQL's own load tool), one a transaction, by
 * `clients` connections for `seconds`: the physical anchor of figure 9. Ids come from the sequence
 * plants_bench_ids, ascending as the bench's creates are, so that both write the index at its end.
 */
export async function pgbenchInserts(url: string, clients: number, seconds: number): Promise<number> {
  const script = join(benchDir('pgbench'), 'insert.sql');
  writeFileSync(script, "INSERT INTO plants (id, name, tag) VALUES (nextval('plants_bench_ids'), 'plant', 'bench');\n");
  const { stdout } = await promisify(execFile)('pgbench', [
    '--no-vacuum',
    '--client',
    String(clients),
    '--jobs',
    '2',
    '--time',
    String(seconds),
    '--file',
    script,
    url,
  ]);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
  if (tps === undefined) throw new Error(`pgbench printed no rate:\n${stdout}`);
  return Number(tps);
}
