import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, csvFile, importedStore, ndjsonFile } from './lib/fixtures.js';
import { env, figure, type Figure, type Sizes } from './lib/figure.js';
import { BIN, mustRun, ROOT } from './lib/process.js';
import { plantsServe } from './lib/servers.js';

const node = process.execPath;
const TIME = '/usr/bin/time';

/**
 * The peak resident set size of a run of plants, in MB, as a user measures it: /usr/bin/time -f %M
 * around the bin (where there is none, a preloaded module reads the same figure at exit). What it
 * prints is not kept. An import on Node 24 runs again in place (execve) with a bound on V8's
 * young generation: the process's peak survives execve (Linux keeps the larger of both images'
 * peaks), so the figure covers both, as time(1) reports it to a user.
 */
async function peakRss(args: string[], environment: NodeJS.ProcessEnv, dir: string): Promise<number> {
  const file = join(dir, `rss-${Date.now()}`);
  if (existsSync(TIME)) await mustRun(TIME, ['-f', '%M', '-o', file, node, BIN, ...args], environment, 'ignore');
  else await mustRun(node, [BIN, ...args], { ...environment, NODE_OPTIONS: `--require ${ROOT}bench/lib/peak-rss.cjs`, PLANTS_BENCH_RSS_FILE: file }, 'ignore');
  return Number(readFileSync(file, 'utf8').trim().split('\n').at(-1)) / 1024;
}

/**
 * Figure 8: the peak memory of an import, remote and local, of NDJSON and of CSV, as a user
 * measures it (the process's peak resident set, as /usr/bin/time -f %M reports it).
 */
export async function importMemory(sizes: Sizes): Promise<Figure[]> {
  const dir = benchDir('rss');
  const rows = sizes.rssRows.toLocaleString('en');
  const figures: Figure[] = [];
  for (const [format, file] of [['NDJSON', ndjsonFile(dir, sizes.rssRows)], ['CSV', csvFile(dir, sizes.rssRows)]] as const) {
    const server = await plantsServe();
    let remote: number;
    try {
      remote = await peakRss(['import', file], env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token }), dir);
    } finally {
      await server.stop();
    }
    const local = await peakRss(['import', file, '--local'], env(dir, { PLANTS_STORE: join(benchDir('rss-store'), 'store.json') }), dir);
    figures.push(
      figure(8, `peak RSS, plants import of ${rows} ${format} rows (remote)`, 'MB', remote, null, { op: '<=', value: 150, of: 'ours' }),
      figure(8, `peak RSS, plants import --local of ${rows} ${format} rows`, 'MB', local, null, { op: '<=', value: 250, of: 'ours' }),
    );
  }
  return figures;
}

/**
 * Figure 11: the peak memory of listing a store of `listRows` plants as NDJSON, from the store
 * and from a plants serve on it: pages stream through, whatever the store's size. The store is
 * one `plants import --local` made (a store file and a journal), as a user's would be.
 */
export async function listMemory(sizes: Sizes): Promise<Figure[]> {
  const dir = benchDir('list-rss');
  const store = await importedStore(dir, sizes.listRows);
  const rows = sizes.listRows.toLocaleString('en');
  const local = await peakRss(['list', '--local', '--format', 'ndjson'], env(dir, { PLANTS_STORE: store }), dir);
  const server = await plantsServe({ store });
  let remote: number;
  try {
    remote = await peakRss(['list', '--format', 'ndjson'], env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token }), dir);
  } finally {
    await server.stop();
  }
  return [
    figure(11, `peak RSS, plants list --local of ${rows} plants imported`, 'MB', local, null, { op: '<=', value: 150, of: 'ours' }),
    figure(11, `peak RSS, plants list of ${rows} plants imported (remote)`, 'MB', remote, null, { op: '<=', value: 100, of: 'ours' }),
  ];
}
