import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { benchDir, ndjsonFile, storeFile } from './lib/fixtures.js';
import { BIN, compareTimes, median, mustRun, ROOT } from './lib/process.js';
import { bareServer, plantsServe, type Server } from './lib/servers.js';

export interface Figure {
  id: number;
  name: string;
  unit: string;
  ours: number;
  baseline: number | null;
  /** ours ÷ baseline, or ours alone where there is no baseline. */
  ratio: number;
  /** None where the issue sets no target, only asks for the figure. */
  target: { op: '<=' | '>='; value: number; of: 'ratio' | 'ours' } | null;
  met: boolean;
  /**
   * For the start-up figures: the time of the least a program can do for the same command with
   * the libraries plants requires (bench/floors), measured in the same runs. Not a target.
   */
  floor?: number;
  detail?: string;
}

export interface Sizes {
  startupRuns: number;
  warmup: number;
  importRows: number;
  importRuns: number;
  loopRows: number;
  localRows: number;
  localRuns: number;
  serveSeconds: number;
  serveRuns: number;
  rssRows: number;
}

export const FULL: Sizes = { startupRuns: 50, warmup: 5, importRows: 20_000, importRuns: 3, loopRows: 300, localRows: 100_000, localRuns: 3, serveSeconds: 6, serveRuns: 3, rssRows: 1_000_000 };
export const QUICK: Sizes = { startupRuns: 5, warmup: 1, importRows: 2_000, importRuns: 1, loopRows: 20, localRows: 10_000, localRuns: 1, serveSeconds: 2, serveRuns: 1, rssRows: 20_000 };

const node = process.execPath;

export function figure(id: number, name: string, unit: string, ours: number, baseline: number | null, target: Figure['target'], detail?: string, floor?: number): Figure {
  const ratio = baseline === null ? ours : ours / baseline;
  const measured = target?.of === 'ratio' ? ratio : ours;
  const met = target === null || (target.op === '<=' ? measured <= target.value : measured >= target.value);
  return { id, name, unit, ours, baseline, ratio, target, met, ...(detail === undefined ? {} : { detail }), ...(floor === undefined ? {} : { floor }) };
}

/** A clean environment for measured runs: config and data in a temp dir, no colour, no proxy. */
export function env(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: dir, PLANTS_CONFIG_DIR: join(dir, 'config'), XDG_DATA_HOME: join(dir, 'data'), ...extra };
}

export async function startup(sizes: Sizes, floor: string): Promise<Figure> {
  const dir = benchDir('version');
  const times = await compareTimes(sizes.startupRuns, sizes.warmup, {
    ours: () => mustRun(node, [BIN, '--version'], env(dir)),
    baseline: () => mustRun(node, ['-e', '0'], env(dir)),
    floor: () => mustRun(node, [floor, '--version'], env(dir)),
  });
  return figure(1, 'plants --version', 'ms', times.ours, times.baseline, { op: '<=', value: 1.3, of: 'ratio' }, undefined, times.floor);
}

export async function createLocal(sizes: Sizes, floor: string): Promise<Figure> {
  const dir = benchDir('local');
  const store = storeFile(dir, 1000);
  const floorStore = storeFile(benchDir('local-floor'), 1000);
  let id = 1_000_000;
  const create = (bin: string, path: string) => mustRun(node, [bin, 'create', '--local', '--id', String((id += 1)), '--name', 'Fern', '--tag', 'herb'], env(dir, { PLANTS_STORE: path }));
  const times = await compareTimes(sizes.startupRuns, sizes.warmup, {
    ours: () => create(BIN, store),
    baseline: () => mustRun(node, ['-e', '0'], env(dir)),
    floor: () => create(floor, floorStore),
  });
  return figure(2, 'plants create --local (store of 1,000)', 'ms', times.ours, times.baseline, { op: '<=', value: 1.5, of: 'ratio' }, undefined, times.floor);
}

export async function createRemote(sizes: Sizes, floor: string): Promise<Figure> {
  const dir = benchDir('remote');
  const server = await plantsServe();
  try {
    let id = 0;
    const remote = env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    const create = (bin: string) => mustRun(node, [bin, 'create', '--id', String((id += 1)), '--name', 'Fern', '--tag', 'herb'], remote);
    const times = await compareTimes(sizes.startupRuns, sizes.warmup, {
      ours: () => create(BIN),
      baseline: () => mustRun(node, ['-e', '0'], env(dir)),
      floor: () => create(floor),
    });
    return figure(3, 'plants create against plants serve', 'ms', times.ours, times.baseline, { op: '<=', value: 2.0, of: 'ratio' }, undefined, times.floor);
  } finally {
    await server.stop();
  }
}

/** Rows per second of one run of `command` against a fresh plants serve. */
async function againstFreshServer(rows: number, command: (server: Server) => Promise<unknown>): Promise<number> {
  const server = await plantsServe();
  try {
    const started = performance.now();
    await command(server);
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await server.stop();
    rmSync(server.store, { force: true });
  }
}

export async function importVsPool(sizes: Sizes): Promise<{ vsPool: Figure; rowsPerSecond: number }> {
  const dir = benchDir('import');
  const file = ndjsonFile(dir, sizes.importRows);
  const ours: number[] = [];
  const pool: number[] = [];
  for (let i = 0; i < sizes.importRuns; i += 1) {
    ours.push(await againstFreshServer(sizes.importRows, (server) => mustRun(node, [BIN, 'import', file], env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token }))));
    pool.push(await againstFreshServer(sizes.importRows, (server) => mustRun(node, [`${ROOT}bench/baselines/pool-loop.mjs`, server.url, server.token, file, '16'])));
  }
  const rowsPerSecond = median(ours);
  return {
    vsPool: figure(4, `plants import of ${sizes.importRows.toLocaleString('en')} rows`, 'rows/s', rowsPerSecond, median(pool), { op: '>=', value: 0.7, of: 'ratio' }, 'baseline: undici Pool loop, same bodies, 16 in flight'),
    rowsPerSecond,
  };
}

export async function importVsShellLoop(sizes: Sizes, importRowsPerSecond: number): Promise<Figure> {
  const dir = benchDir('loop');
  const file = ndjsonFile(dir, sizes.loopRows);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const script = lines.map((line) => {
    const plant = JSON.parse(line) as { id: number; name: string; tag: string };
    return `"$PLANTS_NODE" "$PLANTS_BIN" create --id ${plant.id} --name '${plant.name}' --tag ${plant.tag} >/dev/null || exit 1`;
  });
  const loopRate = await againstFreshServer(sizes.loopRows, (server) =>
    mustRun('bash', ['-c', script.join('\n')], env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token, PLANTS_NODE: node, PLANTS_BIN: BIN })),
  );
  return figure(5, 'plants import vs a shell loop of plants create', 'rows/s', importRowsPerSecond, loopRate, { op: '>=', value: 50, of: 'ratio' }, `loop of ${sizes.loopRows} creates`);
}

export async function importLocal(sizes: Sizes): Promise<Figure> {
  const dir = benchDir('import-local');
  const file = ndjsonFile(dir, sizes.localRows);
  const store = join(dir, 'store.json');
  const out = join(dir, 'plain.json');
  const times = await compareTimes(sizes.localRuns, 1, {
    ours: async () => {
      rmSync(store, { force: true });
      return mustRun(node, [BIN, 'import', file, '--local'], env(dir, { PLANTS_STORE: store }));
    },
    baseline: () => mustRun(node, [`${ROOT}bench/baselines/plain-import.mjs`, file, out]),
  });
  return figure(6, `plants import --local of ${sizes.localRows.toLocaleString('en')} rows`, 'ms', times.ours, times.baseline, { op: '<=', value: 3, of: 'ratio' }, 'baseline: read, JSON.parse each line, write one file');
}

/** Durable creates per second from 50 connections, spread over `servers` (one more id each request). */
export async function createsPerSecond(servers: Server | Server[], seconds: number): Promise<number> {
  const all = Array.isArray(servers) ? servers : [servers];
  const server = all[0] as Server;
  let id = 0;
  const result = await autocannon({
    // autocannon takes several URLs and spreads the connections over them; its types say one.
    url: (all.length === 1 ? server.url : all.map((each) => each.url)) as string,
    connections: 50,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/plants',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: `{"id":${(id += 1)},"name":"plant ${id}","tag":"bench"}` }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors from ${all.map((each) => each.url).join(', ')}`);
  return result['2xx'] / seconds;
}

/** Durable creates per second of a server started for this run alone. */
export async function measuredServer(start: () => Promise<Server>, seconds: number): Promise<number> {
  const server = await start();
  try {
    return await createsPerSecond(server, seconds);
  } finally {
    await server.stop();
  }
}

export async function serveThroughput(sizes: Sizes): Promise<Figure> {
  // In turns, as the start-up figures are, so that a burst of other work on the machine falls on both.
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < sizes.serveRuns; i += 1) {
    ours.push(await measuredServer(plantsServe, sizes.serveSeconds));
    bare.push(await measuredServer(bareServer, sizes.serveSeconds));
  }
  return figure(7, 'plants serve: durable creates/s, 50 connections', 'req/s', median(ours), median(bare), { op: '>=', value: 0.5, of: 'ratio' }, 'baseline: bare node:http, JSON.parse, 200');
}

async function peakRss(args: string[], environment: NodeJS.ProcessEnv, dir: string): Promise<number> {
  const file = join(dir, `rss-${Date.now()}`);
  await mustRun(node, [BIN, ...args], { ...environment, NODE_OPTIONS: `--require ${ROOT}bench/lib/peak-rss.cjs`, PLANTS_BENCH_RSS_FILE: file });
  return Number(readFileSync(file, 'utf8')) / 1024;
}

export async function memory(sizes: Sizes): Promise<Figure[]> {
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

