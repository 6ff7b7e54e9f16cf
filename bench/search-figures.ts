import { createTestDatabase } from '../test/helpers/postgres.js';
import { benchDir, importedStore } from './lib/fixtures.js';
import { env, figure, type Figure, type Sizes } from './lib/figure.js';
import type { BenchNode } from './lib/nodes.js';
import { BIN, compareTimes, mustRun } from './lib/process.js';
import { plantsServe, type Server } from './lib/servers.js';

/** Runs of each command: each reads a store of `bigStore` plants whole. */
const RUNS = { full: 5, quick: 2 };

/**
 * Figures 23-28: `plants list --search` and `--count` on a store of `bigStore` plants (`plant 1` …,
 * as `plants import --local` leaves it), each against `plants list --limit 10` on the same store
 * in the same runs (what any list costs: a start, a store opened, a page): on `--local`, through a
 * `plants serve` on that store file, and through one on PostgreSQL holding the same plants. The
 * search finds one plant, the last, so that every store reads all of its plants (the file store
 * scans; PostgreSQL reads its trigram index); the count counts a ninth of them.
 */
export async function searchFigures(sizes: Sizes, node: BenchNode, quick: boolean): Promise<Figure[]> {
  const plants = sizes.bigStore;
  const store = await importedStore(benchDir('search'), plants);
  const dir = benchDir('search-runs');
  const runs = quick ? RUNS.quick : RUNS.full;
  const search = ['--search', `PLANT ${plants - 1}`];
  const count = ['--count', '--search', 'PLANT 1'];
  const big = plants.toLocaleString('en');
  const figures: Figure[] = [];
  const measure = async (id: number, what: string, args: string[], on: string[], environment: NodeJS.ProcessEnv) => {
    const list = (command: string[]) => [BIN, 'list', ...command, ...on];
    const run = (command: string[]) => () => mustRun(node.path, list(command), environment, 'ignore');
    const times = await compareTimes(runs, 1, { ours: run(args), baseline: run(['--limit', '10']) });
    const where = on[0] === '--local' ? '--local' : 'from the same service';
    const detail = `baseline: plants list --limit 10 ${where}, same store`;
    figures.push(figure(id, `${what}, ${big} plants (${node.label})`, 'ms', times.ours, times.baseline, null, detail));
  };
  const local = env(dir, { PLANTS_STORE: store });
  await measure(23, `plants list --local --search (a scan: every plant read)`, search, ['--local'], local);
  await measure(24, 'plants list --local --count --search (a scan)', count, ['--local'], local);
  await onService(plantsServe({ store }), async (server) => {
    await measure(25, 'plants list --search from plants serve (a scan of its store)', search, remote(server), env(dir));
    await measure(26, 'plants list --count --search from plants serve (a scan)', count, remote(server), env(dir));
  });
  const db = await createTestDatabase();
  try {
    await onService(plantsServe({ database: db.url }), async (server) => {
      // The table plants made (schema version 2, its indexes), filled in one statement: a million
      // creates through the service would take minutes, and leave the same rows.
      const fill = "INSERT INTO plants SELECT g, 'plant ' || g, 'bench' FROM generate_series(1, $1::int) AS g";
      await db.query(fill, [plants]);
      await db.query('ANALYZE plants');
      const indexed = 'plants list --search from plants serve --database (trigram index)';
      await measure(27, indexed, search, remote(server), env(dir));
      await measure(28, 'plants list --count --search from plants serve --database', count, remote(server), env(dir));
    });
  } finally {
    await db.drop();
  }
  return figures;
}

function remote(server: Server): string[] {
  return ['--base-url', server.url, '--token', server.token];
}

async function onService(started: Promise<Server>, work: (server: Server) => Promise<void>): Promise<void> {
  const server = await started;
  try {
    await work(server);
  } finally {
    await server.stop();
  }
}
