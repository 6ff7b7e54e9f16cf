import { benchDir, storeFile } from './lib/fixtures.js';
import { env, figure, type Figure, type Sizes } from './lib/figure.js';
import type { FloorName } from './lib/floors.js';
import type { BenchNode } from './lib/nodes.js';
import { BIN, compareTimes, mustRun, type Run } from './lib/process.js';
import { plantsServe } from './lib/servers.js';

/**
 * Node 24's guard for each start-up figure (issue 39, settling what issue 27 left open): at most its
 * floor's time plus 0.8 times `node -e 0`'s, in the same runs. Start-up is accepted at the level it
 * reached; the guard catches a regression, it is not a target to work towards. Node 20 (past its
 * end of life) is measured and not held to it.
 */
const ABOVE_FLOOR = 0.8;

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
  const storeOf = (bin: string) =>
    stores.get(bin) ?? (stores.set(bin, storeFile(benchDir('local'), 1000)), stores.get(bin) as string);
  // The reads share one store, which none of them changes.
  const readStore = storeFile(benchDir('read'), 1000);
  let id = 1_000_000;
  const server = await plantsServe();
  const remote = env(dir, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
  const create = (node: string, bin: string, extra: string[], environment: NodeJS.ProcessEnv) =>
    mustRun(node, [bin, 'create', ...extra, '--id', String((id += 1)), '--name', 'Fern', '--tag', 'herb'], environment);
  return [
    {
      id: 1,
      name: 'plants --version',
      floor: 'version',
      run: (node, bin) => mustRun(node, [bin, '--version'], env(dir)),
      close: async () => undefined,
    },
    {
      id: 2,
      name: 'plants create --local (store of 1,000)',
      floor: 'create-local',
      run: (node, bin) => create(node, bin, ['--local'], env(dir, { PLANTS_STORE: storeOf(bin) })),
      close: async () => undefined,
    },
    {
      id: 3,
      name: 'plants create against plants serve',
      floor: 'create-remote',
      run: (node, bin) => create(node, bin, [], remote),
      close: () => server.stop(),
    },
    {
      id: 17,
      name: 'plants get --local (store of 1,000)',
      floor: 'get-local',
      run: (node, bin) => mustRun(node, [bin, 'get', '--local', '--id', '500'], env(dir, { PLANTS_STORE: readStore })),
      close: async () => undefined,
    },
    {
      id: 18,
      name: 'plants list --local --limit 10 (store of 1,000)',
      floor: 'list-local',
      run: (node, bin) =>
        mustRun(node, [bin, 'list', '--local', '--limit', '10'], env(dir, { PLANTS_STORE: readStore })),
      close: async () => undefined,
    },
  ];
}

/**
 * The start-up figures on each Node: whole processes, each against `node -e 0` of the same Node,
 * with the floor of the libraries plants requires (bench/floors) in the same runs.
 */
export async function startupFigures(
  sizes: Sizes,
  nodes: readonly BenchNode[],
  floors: Record<FloorName, string>,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const list = await commands();
  try {
    for (const node of nodes) {
      for (const command of list) {
        const times = await compareTimes(sizes.startupRuns, sizes.warmup, {
          ours: () => command.run(node.path, BIN),
          baseline: () => mustRun(node.path, ['-e', '0'], env(benchDir('baseline'))),
          floor: () => command.run(node.path, floors[command.floor]),
        });
        const name = `${command.name} (${node.label})`;
        const [ours, baseline, floor] = [times.ours, times.baseline, times.floor] as [number, number, number];
        const target = Number((floor / baseline + ABOVE_FLOOR).toFixed(2));
        const guard = { op: '<=', value: target, of: 'ratio' } as const;
        if (node.major === 24) {
          figures.push(
            figure(
              command.id,
              name,
              'ms',
              ours,
              baseline,
              guard,
              `guard: the floor + ${ABOVE_FLOOR}× node -e 0`,
              floor,
            ),
          );
        } else {
          const detail = `no guard on Node ${node.major}; Node 24's would be ≤ ${target}×`;
          figures.push(figure(command.id, name, 'ms', ours, baseline, null, detail, floor));
        }
      }
    }
  } finally {
    await Promise.all(list.map((command) => command.close()));
  }
  return figures;
}
