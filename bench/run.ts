// npm run bench [-- --quick]: every figure of the performance issues, each against a baseline
// measured in the same run, as a table on stdout and as JSON in bench/results/.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { importLocal, importUpdates, importVsPool, importVsShellLoop } from './import-figures.js';
import { FULL, QUICK, type Figure } from './lib/figure.js';
import { buildFloors } from './lib/floors.js';
import { benchNodes, type BenchNode } from './lib/nodes.js';
import { ROOT } from './lib/process.js';
import { importMemory, listMemory } from './memory-figures.js';
import { testServer } from '../test/helpers/postgres-server.js';
import { pgbenchMissing, postgresThroughput } from './postgres-figures.js';
import { adminPortCost, serveThroughput } from './serve-figures.js';
import { startupFigures } from './startup-figures.js';
import { searchFigures } from './search-figures.js';
import { storeSizeFigures } from './store-size-figures.js';

const quick = process.argv.includes('--quick');
const part = process.argv.includes('--part');
const sizes = quick ? QUICK : FULL;
const nodes = part ? [] : benchNodes();
const machine =
  `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ` +
  `${process.platform}; on ${nodes.map((node) => node.label).join(' and ')} (figures 12-16 on the first)`;
const started = Date.now();
const figures: Figure[] = [];

async function measure(name: string, work: () => Promise<Figure | Figure[]>): Promise<void> {
  process.stderr.write(`measuring ${name}…\n`);
  const result = await work();
  figures.push(...(Array.isArray(result) ? result : [result]));
}

/** Figures 4-11: a service, imports, memory. On the machine's Node, and again on Node 24 (the reference). */
async function serviceFigures(): Promise<void> {
  const first = figures.length;
  let importRate = 0;
  await measure('import against plants serve', async () => {
    const { vsPool, rowsPerSecond } = await importVsPool(sizes);
    importRate = rowsPerSecond;
    return vsPool;
  });
  await measure('a shell loop of plants create', () => importVsShellLoop(sizes, importRate));
  await measure('import --local', () => importLocal(sizes));
  await measure('imports that update (figures 21, 22)', () => importUpdates(sizes));
  await measure('plants serve throughput', () => serveThroughput(sizes));
  await measure("the cost of the admin port's metrics (figure 20)", () => adminPortCost(sizes));
  await measure('peak memory of imports', () => importMemory(sizes));
  await measure('plants serve on PostgreSQL', () => postgresThroughput(sizes));
  await measure('peak memory of list', () => listMemory(sizes));
  // Named with the Node they ran on: they run again on another.
  for (const f of figures.slice(first)) f.name = `${f.name} (Node ${process.versions.node})`;
}

if (part) {
  // A run of this file under another Node, for the figures that run on the Node that runs them:
  // they go to the run that started it, as JSON on stdout, named with this Node.
  await serviceFigures();
  process.stdout.write(JSON.stringify(figures));
  process.exit(0);
}

// A full run measures every figure: one that cannot be, it says before it begins. The quick run
// leaves figure 19 out where pgbench is missing, and says so.
const noPgbench = pgbenchMissing();
if (!quick && noPgbench !== undefined) {
  process.stderr.write(`figure 19 measures plants serve against pgbench: ${noPgbench}\n`);
  process.exit(1);
}
// The PostgreSQL of the figures on it, found or started as for the tests; the runs under another
// Node find it in the environment.
const postgres = await testServer((line) => process.stderr.write(`${line}\n`));
process.env.PLANTS_TEST_DATABASE_URL = postgres.url;

const floors = await buildFloors();
await measure('start-up (figures 1-3, 17, 18)', () => startupFigures(sizes, nodes, floors));
await serviceFigures();
for (const node of nodes.filter((each) => each.path !== process.execPath)) {
  await measure(`figures 4-11 on ${node.label}`, async () => {
    const run = spawnSync(
      node.path,
      ['--import', 'tsx', `${ROOT}bench/run.ts`, '--part', ...(quick ? ['--quick'] : [])],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 },
    );
    if (run.status !== 0) throw new Error(`figures 4-11 on ${node.label} failed (exit ${run.status})`);
    return JSON.parse(run.stdout) as Figure[];
  });
}
await measure("the cost of a store's size (figures 12-16)", () =>
  storeSizeFigures(sizes, nodes[0] as (typeof nodes)[number]),
);
await measure('name search and count (figures 23-28)', () => searchFigures(sizes, nodes[0] as BenchNode, quick));
await postgres.stop();

const number = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(1));
const rows = figures.map((f) => [
  String(f.id),
  f.name,
  `${number(f.ours)} ${f.unit}`,
  f.baseline === null ? '—' : `${number(f.baseline)} ${f.unit}`,
  f.baseline === null ? '—' : `${f.ratio.toFixed(2)}×`,
  f.target === null
    ? '—'
    : `${f.target.op === '<=' ? '≤' : '≥'} ${f.target.value}${f.target.of === 'ratio' ? '×' : ` ${f.unit}`}`,
  f.target === null ? '—' : f.met ? 'yes' : 'NO',
  f.floor === undefined || f.baseline === null
    ? ''
    : `${number(f.floor)} ${f.unit} (${(f.floor / f.baseline).toFixed(2)}×)`,
]);
const header = ['#', 'figure', 'ours', 'baseline', 'ratio', 'target', 'met', 'floor (ratio)'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] as number)).join(' | ')} |`;
const table = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
const details = figures.filter((f) => f.detail !== undefined).map((f) => `- ${f.id}, ${f.name}: ${f.detail}`);
const seconds = ((Date.now() - started) / 1000).toFixed(0);
process.stdout.write(
  `${table}\n\n${details.join('\n')}\n\n${quick ? 'quick run' : 'full run'} on ${machine}, in ${seconds} s\n`,
);

const results = `${ROOT}bench/results`;
mkdirSync(results, { recursive: true });
const document = { quick, machine, date: new Date().toISOString(), seconds: Number(seconds), figures };
writeFileSync(`${results}/${quick ? 'quick' : 'full'}.json`, `${JSON.stringify(document, null, 2)}\n`);
process.stderr.write(`written to bench/results/${quick ? 'quick' : 'full'}.json\n`);
