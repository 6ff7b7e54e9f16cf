import { checkoutBefore } from './lib/before.js';
import { benchDir, storeFile } from './lib/fixtures.js';
import { env, figure, type Figure, type Sizes } from './lib/figure.js';
import type { FloorName } from './lib/floors.js';
import type { BenchNode } from './lib/nodes.js';
import { BIN, compareTimes, mustRun, type Run } from './lib/process.js';
import { plantsServe } from './lib/servers.js';

/** Node 24's targets for figures 1-3, as ratios to its own `node -e 0`. */
const NODE_24_TARGETS = { version: 1.3, 'create-local': 1.6, 'create-remote': 1.9 } as const;
/** Elsewhere: no more than this times the ratio of the commit before the start-up rework. */
const BEFORE_SLACK = 1.1;

interface Command {
  id: number;
  name: string;
  floor: FloorName;
  /** Runs `bin` (ours, the commit before, or a floor) once on `node`. */
  run(node: string, bin: string): Promise<Run>;
  close(): Promise<void>;
}

async function commands(): Promise<Command[]> {
  const dir = benchDir('startup');
  // Each program creates in a store of its own: 1,000 plants to start with, an id higher each run.
  const stores = new Map<string, string>();
  const storeOf = (bin: string) => stores.get(bin) ?? (stores.set(bin, storeFile(benchDir('local'), 1000)), stores.get(bin) as string);
  let id = 1_000_000;
  const server = await plantsServe();
  const remote = env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
  const create = (node: string, bin: string, extra: string[], environment: NodeJS.ProcessEnv) => mustRun(node, [bin, 'create', ...extra, '--id', String((id += 1)), '--name', 'Fern', '--tag', 'herb'], environment);
  return [
    { id: 1, name: 'plants --version', floor: 'version', run: (node, bin) => mustRun(node, [bin, '--version'], env(dir)), close: async () => undefined },
    {
      id: 2,
      name: 'plants create --local (store of 1,000)',
      floor: 'create-local',
      run: (node, bin) => create(node, bin, ['--local'], env(dir, { PLANTS_STORE: storeOf(bin) })),
      close: async () => undefined,
    },
    { id: 3, name: 'plants create against plants serve', floor: 'create-remote', run: (node, bin) => create(node, bin, [], remote), close: () => server.stop() },
  ];
}

/**
 * Figures 1-3 on each Node: whole processes, each against `node -e 0` of the same Node, with the
 * floor of the libraries plants requires (bench/floors) in the same runs; on the Node that is not
 * 24, also the commit before the start-up rework, held to within 10% of its ratio.
 */
export async function startupFigures(sizes: Sizes, nodes: readonly BenchNode[], floors: Record<FloorName, string>): Promise<Figure[]> {
  const figures: Figure[] = [];
  const list = await commands();
  try {
    for (const node of nodes) {
      const before = node.major === 24 ? undefined : checkoutBefore();
      for (const command of list) {
        const runners: Record<string, () => Promise<Run>> = {
          ours: () => command.run(node.path, BIN),
          baseline: () => mustRun(node.path, ['-e', '0'], env(benchDir('baseline'))),
          floor: () => command.run(node.path, floors[command.floor]),
        };
        if (before !== undefined) runners.before = () => command.run(node.path, before);
        const times = (await compareTimes(sizes.startupRuns, sizes.warmup, runners)) as Record<'ours' | 'baseline' | 'floor', number> & { before?: number };
        const name = `${command.name} (${node.label})`;
        if (before === undefined) {
          figures.push(figure(command.id, name, 'ms', times.ours, times.baseline, { op: '<=', value: NODE_24_TARGETS[command.floor], of: 'ratio' }, undefined, times.floor));
        } else {
          const was = (times.before as number) / times.baseline;
          const detail = `the commit before the start-up rework: ${times.before?.toFixed(1)} ms (${was.toFixed(2)}×)`;
          figures.push(figure(command.id, name, 'ms', times.ours, times.baseline, { op: '<=', value: Number((was * BEFORE_SLACK).toFixed(2)), of: 'ratio' }, detail, times.floor));
        }
      }
    }
  } finally {
    await Promise.all(list.map((command) => command.close()));
  }
  return figures;
}
