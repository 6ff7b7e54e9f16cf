import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, importedStore } from './lib/fixtures.js';
import { env, figure, type Figure, type Sizes } from './lib/figure.js';
import type { BenchNode } from './lib/nodes.js';
import { BIN, compareTimes, median, mustRun } from './lib/process.js';
import { plantsServe } from './lib/servers.js';
import { measuredServer } from './serve-figures.js';

/** A store as `plants import --local` of `rows` rows leaves it (ids 1 to rows), copied anew for each use. */
function copyOf(made: string, dir: string): string {
  const store = join(dir, 'store.json');
  for (const suffix of ['', '.journal', '.index'])
    if (existsSync(`${made}${suffix}`)) copyFileSync(`${made}${suffix}`, `${store}${suffix}`);
  return store;
}

/**
 * Figures 12-16: what the size of a store costs. Each one-shot `--local` command on a store of
 * `bigStore` plants against the same command on a store of 1,000, both made by `plants import
 * --local` (a store file, a journal and an index, as a user has them), in turns on Node 24; and the
 * durable creates/s of a `plants serve` on the big store against one on an empty store.
 */
export async function storeSizeFigures(sizes: Sizes, node: BenchNode): Promise<Figure[]> {
  const dir = benchDir('size');
  const made = {
    big: await importedStore(benchDir('size-big'), sizes.bigStore),
    small: await importedStore(benchDir('size-small'), 1_000),
  };
  const stores = {
    big: copyOf(made.big, benchDir('size-big-copy')),
    small: copyOf(made.small, benchDir('size-small-copy')),
  };
  const big = sizes.bigStore.toLocaleString('en');
  // Ids each run asks for afresh: a plant of both stores to read or delete, a new one to create.
  let next = 2;
  let fresh = 10_000_000_000;
  const commands: { id: number; name: string; args: () => string[] }[] = [
    { id: 12, name: 'get --local', args: () => ['get', '--local', '--id', String(1 + (next++ % 999))] },
    {
      id: 13,
      name: 'create --local',
      args: () => ['create', '--local', '--id', String(fresh++), '--name', 'Fern', '--tag', 'herb'],
    },
    { id: 14, name: 'delete --local --id', args: () => ['delete', '--local', '--id', String(next++)] },
    {
      id: 15,
      name: 'list --local --after 500 --limit 100',
      args: () => ['list', '--local', '--after', '500', '--limit', '100'],
    },
  ];
  const figures: Figure[] = [];
  for (const command of commands) {
    // The same arguments for both stores in a round, so that both do the same work.
    let args = command.args();
    let turns = 0;
    const run = (store: string) => () => {
      if (turns++ % 2 === 0) args = command.args();
      return mustRun(node.path, [BIN, ...args], env(dir, { PLANTS_STORE: store }));
    };
    const times = await compareTimes(sizes.startupRuns, sizes.warmup, {
      ours: run(stores.big),
      baseline: run(stores.small),
    });
    figures.push(
      figure(
        command.id,
        `plants ${command.name}, store of ${big} (${node.label})`,
        'ms',
        times.ours,
        times.baseline,
        { op: '<=', value: 1.5, of: 'ratio' },
        'baseline: the same on a store of 1,000',
      ),
    );
  }
  const onBig: number[] = [];
  const onEmpty: number[] = [];
  for (let i = 0; i < sizes.serveRuns; i += 1) {
    onBig.push(
      await measuredServer(
        () => plantsServe({ store: copyOf(made.big, benchDir('size-serve')) }),
        sizes.serveSeconds,
        sizes.bigStore + 1,
      ),
    );
    onEmpty.push(await measuredServer(() => plantsServe(), sizes.serveSeconds));
  }
  figures.push(
    figure(
      16,
      `plants serve on a store of ${big}: durable creates/s`,
      'req/s',
      median(onBig),
      median(onEmpty),
      { op: '>=', value: 0.8, of: 'ratio' },
      'baseline: the same on an empty store',
    ),
  );
  return figures;
}
