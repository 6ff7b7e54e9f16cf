import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, csvFile, importedStore, ndjsonFile } from './lib/fixtures.js';
import { env, figure, type Figure, type Sizes } from './lib/figure.js';
import { BIN, mustRun, ROOT } from './lib/process.js';
import { plantsServe } from './lib/servers.js';

const node = process.execPath;
const TIME = '/usr/bin/time';
const major = Number(process.versions.node.split('.')[0]);

const MB = (value: number): Figure['target'] => ({ op: '<=', value, of: 'ours' });

/**
 * Peak RSS targets, MB. Node 24 (issue 39): V8 sizes its young generation to the machine, up to
 * 128 MB here, and no bound is forced on it. Node 20 (issue 25): its young generation stops at
 * 32 MB on any machine.
 */
const TARGETS =
  major <= 20
    ? { importRemote: MB(150), importLocal: MB(250), listRemote: MB(100), listLocal: MB(150) }
    : { importRemote: MB(320), importLocal: MB(320), listRemote: MB(160), listLocal: MB(150) };

/**
 * What streams holds as much whatever the input's size: its peak on all the rows at most this
 * times its peak on a tenth of them (issue 39, Node 24: a remote import, a remote list). A list
 * --local and Node 20 are measured against a tenth too, held to nothing.
 */
const FLAT: Figure['target'] = major <= 20 ? null : { op: '<=', value: 1.25, of: 'ratio' };

/**
 * The peak resident set size of a run of plants, in MB, as a user measures it: /usr/bin/time -f %M
 * around the bin (where there is none, a preloaded module reads the same figure at exit). What it
 * prints is not kept.
 */
async function peakRss(args: string[], environment: NodeJS.ProcessEnv, dir: string): Promise<number> {
  const file = join(dir, `rss-${Date.now()}`);
  if (existsSync(TIME)) await mustRun(TIME, ['-f', '%M', '-o', file, node, BIN, ...args], environment, 'ignore');
  else {
    const preload = { NODE_OPTIONS: `--require ${ROOT}bench/lib/peak-rss.cjs`, PLANTS_BENCH_RSS_FILE: file };
    await mustRun(node, [BIN, ...args], { ...environment, ...preload }, 'ignore');
  }
  return Number(readFileSync(file, 'utf8').trim().split('\n').at(-1)) / 1024;
}

/** The peak of `args` run against a fresh plants serve (on `store`, if given). */
async function peakRemote(args: string[], dir: string, store?: string): Promise<number> {
  const server = await plantsServe(store === undefined ? {} : { store });
  try {
    return await peakRss(args, env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token }), dir);
  } finally {
    await server.stop();
  }
}

const count = (rows: number) => rows.toLocaleString('en');

/**
 * Figure 8: the peak memory of an import, remote and local, of NDJSON and of CSV, as a user
 * measures it (the process's peak resident set, as /usr/bin/time -f %M reports it); a remote
 * import also on a tenth of the rows, against which it should hold no more (it streams).
 */
export async function importMemory(sizes: Sizes): Promise<Figure[]> {
  const dir = benchDir('rss');
  const [rows, tenth] = [sizes.rssRows, sizes.rssRows / 10];
  const figures: Figure[] = [];
  for (const [format, make] of [
    ['NDJSON', ndjsonFile],
    ['CSV', csvFile],
  ] as const) {
    const file = make(dir, rows);
    const remote = await peakRemote(['import', file], dir);
    const remoteTenth = await peakRemote(['import', make(dir, tenth)], dir);
    const store = join(benchDir('rss-store'), 'store.json');
    const local = await peakRss(['import', file, '--local'], env(dir, { PLANTS_STORE: store }), dir);
    const what = `${count(rows)} ${format} rows`;
    figures.push(
      figure(8, `peak RSS, plants import of ${what} (remote)`, 'MB', remote, null, TARGETS.importRemote),
      figure(8, `the same, against ${count(tenth)} rows`, 'MB', remote, remoteTenth, FLAT),
      figure(8, `peak RSS, plants import --local of ${what}`, 'MB', local, null, TARGETS.importLocal),
    );
  }
  return figures;
}

/**
 * Figure 11: the peak memory of listing a store of `listRows` plants as NDJSON, from the store
 * and from a plants serve on it, each against the same on a store of a tenth as many: pages
 * stream through, whatever the store's size. Each store is one `plants import --local` made (a
 * store file and a journal), as a user's would be.
 */
export async function listMemory(sizes: Sizes): Promise<Figure[]> {
  const [rows, tenth] = [sizes.listRows, sizes.listRows / 10];
  const peaks = async (plants: number) => {
    const dir = benchDir('list-rss');
    const store = await importedStore(dir, plants);
    const local = await peakRss(['list', '--local', '--format', 'ndjson'], env(dir, { PLANTS_STORE: store }), dir);
    return { local, remote: await peakRemote(['list', '--format', 'ndjson'], dir, store) };
  };
  const all = await peaks(rows);
  const what = `${count(rows)} plants imported`;
  const few = await peaks(tenth);
  return [
    figure(11, `peak RSS, plants list --local of ${what}`, 'MB', all.local, null, TARGETS.listLocal),
    figure(11, `the same, against ${count(tenth)} plants`, 'MB', all.local, few.local, null),
    figure(11, `peak RSS, plants list of ${what} (remote)`, 'MB', all.remote, null, TARGETS.listRemote),
    figure(11, `the same, against ${count(tenth)} plants`, 'MB', all.remote, few.remote, FLAT),
  ];
}
