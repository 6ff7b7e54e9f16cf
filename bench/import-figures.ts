import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchDir, ndjsonFile } from './lib/fixtures.js';
import { env, figure, type Figure, type Sizes } from './lib/figure.js';
import { BIN, compareTimes, median, mustRun, ROOT } from './lib/process.js';
import { plantsServe, type Server } from './lib/servers.js';

const node = process.execPath;

/**
 * Rows per second of one run of `command` against a fresh plants serve; `prepare`, untimed, may
 * fill it first and give the command to time instead.
 */
async function againstFreshServer(
  rows: number,
  command: (server: Server) => Promise<unknown>,
  prepare?: (server: Server) => Promise<() => Promise<unknown>>,
): Promise<number> {
  const server = await plantsServe();
  try {
    const timed = prepare === undefined ? () => command(server) : await prepare(server);
    const started = performance.now();
    await timed();
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await server.stop();
    for (const path of [server.store, `${server.store}.journal`]) rmSync(path, { force: true });
  }
}

export async function importVsPool(sizes: Sizes): Promise<{ vsPool: Figure; rowsPerSecond: number }> {
  const dir = benchDir('import');
  const file = ndjsonFile(dir, sizes.importRows);
  const ours: number[] = [];
  const pool: number[] = [];
  for (let i = 0; i < sizes.importRuns; i += 1) {
    ours.push(
      await againstFreshServer(sizes.importRows, (server) =>
        mustRun(node, [BIN, 'import', file], env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token })),
      ),
    );
    pool.push(
      await againstFreshServer(sizes.importRows, (server) =>
        mustRun(node, [`${ROOT}bench/baselines/pool-loop.mjs`, server.url, server.token, file, '16']),
      ),
    );
  }
  const rowsPerSecond = median(ours);
  return {
    vsPool: figure(
      4,
      `plants import of ${sizes.importRows.toLocaleString('en')} rows`,
      'rows/s',
      rowsPerSecond,
      median(pool),
      { op: '>=', value: 0.7, of: 'ratio' },
      'baseline: undici Pool loop, same bodies, 16 in flight',
    ),
    rowsPerSecond,
  };
}

export async function importVsShellLoop(sizes: Sizes, importRowsPerSecond: number): Promise<Figure> {
  const dir = benchDir('loop');
  const file = ndjsonFile(dir, sizes.loopRows);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const script = lines.map((line) => {
    const plant = JSON.parse(line) as { id: number; name: string; tag: string };
    return (
      `"$PLANTS_NODE" "$PLANTS_BIN" create --id ${plant.id} --name '${plant.name}' --tag ${plant.tag} >/dev/null ` +
      '|| exit 1'
    );
  });
  const loopRate = await againstFreshServer(sizes.loopRows, (server) =>
    mustRun(
      'bash',
      ['-c', script.join('\n')],
      env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token, PLANTS_NODE: node, PLANTS_BIN: BIN }),
    ),
  );
  return figure(
    5,
    'plants import vs a shell loop of plants create',
    'rows/s',
    importRowsPerSecond,
    loopRate,
    { op: '>=', value: 50, of: 'ratio' },
    `loop of ${sizes.loopRows} creates`,
  );
}

export async function importLocal(sizes: Sizes): Promise<Figure> {
  const dir = benchDir('import-local');
  const file = ndjsonFile(dir, sizes.localRows);
  const store = join(dir, 'store.json');
  const out = join(dir, 'plain.json');
  const times = await compareTimes(sizes.localRuns, 1, {
    ours: async () => {
      // A fresh store each run: the file and its journal.
      for (const path of [store, `${store}.journal`]) rmSync(path, { force: true });
      return mustRun(node, [BIN, 'import', file, '--local'], env(dir, { PLANTS_STORE: store }));
    },
    baseline: () => mustRun(node, [`${ROOT}bench/baselines/plain-import.mjs`, file, out]),
  });
  return figure(
    6,
    `plants import --local of ${sizes.localRows.toLocaleString('en')} rows`,
    'ms',
    times.ours,
    times.baseline,
    { op: '<=', value: 3, of: 'ratio' },
    'baseline: read, JSON.parse each line, write one file',
  );
}

/**
 * Figures 21-22: `import --on-conflict update` of rows that rename every plant of a store of the
 * same ids, against a create import of as many new rows, in turns in the same run: into a plants
 * serve (21), and --local (22, the size of figure 6).
 */
export async function importUpdates(sizes: Sizes): Promise<Figure[]> {
  const dir = benchDir('import-update');
  const rows = sizes.importRows;
  const file = ndjsonFile(dir, rows);
  const renamed = ndjsonFile(dir, rows, true);
  const creates: number[] = [];
  const updates: number[] = [];
  const to = (server: Server) => env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
  for (let i = 0; i < sizes.importRuns; i += 1) {
    creates.push(await againstFreshServer(rows, (server) => mustRun(node, [BIN, 'import', file], to(server))));
    updates.push(
      await againstFreshServer(
        rows,
        async () => undefined,
        async (server) => {
          await mustRun(node, [BIN, 'import', file], to(server));
          return () => mustRun(node, [BIN, 'import', renamed, '--on-conflict', 'update'], to(server));
        },
      ),
    );
  }
  const localDir = benchDir('import-update-local');
  const localFile = ndjsonFile(localDir, sizes.localRows);
  const localRenamed = ndjsonFile(localDir, sizes.localRows, true);
  const made = join(localDir, 'made.json');
  await mustRun(node, [BIN, 'import', localFile, '--local'], env(localDir, { PLANTS_STORE: made }));
  const store = join(localDir, 'store.json');
  const suffixes = ['', '.journal', '.index'];
  const times = await compareTimes(sizes.localRuns, 1, {
    ours: async () => {
      for (const suffix of suffixes) rmSync(`${store}${suffix}`, { force: true });
      for (const suffix of suffixes)
        if (existsSync(`${made}${suffix}`)) copyFileSync(`${made}${suffix}`, `${store}${suffix}`);
      return mustRun(
        node,
        [BIN, 'import', localRenamed, '--local', '--on-conflict', 'update'],
        env(localDir, { PLANTS_STORE: store }),
      );
    },
    baseline: async () => {
      for (const suffix of suffixes) rmSync(`${store}${suffix}`, { force: true });
      return mustRun(node, [BIN, 'import', localFile, '--local'], env(localDir, { PLANTS_STORE: store }));
    },
  });
  return [
    figure(
      21,
      `plants import --on-conflict update of ${rows.toLocaleString('en')} rows over as many plants`,
      'rows/s',
      median(updates),
      median(creates),
      { op: '>=', value: 0.8, of: 'ratio' },
      'baseline: the create import of as many new rows, into plants serve',
    ),
    // Times, so the ratio is inverted to compare rates: creates' time over updates'.
    figure(
      22,
      `plants import --local --on-conflict update of ${sizes.localRows.toLocaleString('en')} rows over as many plants`,
      'ms',
      times.ours,
      times.baseline,
      { op: '<=', value: 1.35, of: 'ratio' },
      'baseline: the create import of figure 6, into a new store (accepted at 1.35x its time, issue 39)',
    ),
  ];
}
