import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, importedStore, ndjsonFile } from './lib/fixtures.js';
import { env, figure, type Figure, type Sizes } from './lib/figure.js';
import { BIN, mustRun, ROOT } from './lib/process.js';
import { plantsServe } from './lib/servers.js';

const node = process.execPath;

/** The peak resident set size of a run of plants, in MB; what it prints is not kept. */
async function peakRss(args: string[], environment: NodeJS.ProcessEnv, dir: string): Promise<number> {
  const file = join(dir, `rss-${Date.now()}`);
  await mustRun(node, [BIN, ...args], { ...environment, NODE_OPTIONS: `--require ${ROOT}bench/lib/peak-rss.cjs`, PLANTS_BENCH_RSS_FILE: file }, 'ignore');
  return Number(readFileSync(file, 'utf8')) / 1024;
}

/** Figure 8: the peak memory of an import, remote and local. */
export async function importMemory(sizes: Sizes): Promise<Figure[]> {
  const dir = benchDir('rss');
  const file = ndjsonFile(dir, sizes.rssRows);
  const rows = sizes.rssRows.toLocaleString('en');
  const server = await plantsServe();
  let remote: number;
  try {
    remote = await peakRss(['import', file], env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token }), dir);
  } finally {
    await server.stop();
  }
  const local = await peakRss(['import', file, '--local'], env(dir, { PLANTS_STORE: join(dir, 'store.json') }), dir);
  return [
    figure(8, `peak RSS, plants import of ${rows} rows (remote)`, 'MB', remote, null, { op: '<=', value: 200, of: 'ours' }),
    figure(8, `peak RSS, plants import --local of ${rows} rows`, 'MB', local, null, { op: '<=', value: 400, of: 'ours' }),
  ];
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
    figure(11, `peak RSS, plants list of ${rows} plants imported (remote)`, 'MB', remote, null, { op: '<=', value: 150, of: 'ours' }),
  ];
}
