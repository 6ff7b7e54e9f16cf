import { join } from 'node:path';

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
  listRows: number;
  /** Plants in the big store of the store-size figures (12-16). */
  bigStore: number;
}

export const FULL: Sizes = {
  startupRuns: 50,
  warmup: 5,
  importRows: 20_000,
  importRuns: 3,
  loopRows: 300,
  localRows: 100_000,
  localRuns: 3,
  serveSeconds: 6,
  serveRuns: 3,
  rssRows: 1_000_000,
  listRows: 1_000_000,
  bigStore: 1_000_000,
};
export const QUICK: Sizes = {
  startupRuns: 5,
  warmup: 1,
  importRows: 2_000,
  importRuns: 1,
  loopRows: 20,
  localRows: 10_000,
  localRuns: 1,
  serveSeconds: 2,
  serveRuns: 1,
  rssRows: 20_000,
  listRows: 20_000,
  bigStore: 20_000,
};

export function figure(
  id: number,
  name: string,
  unit: string,
  ours: number,
  baseline: number | null,
  target: Figure['target'],
  detail?: string,
  floor?: number,
): Figure {
  const ratio = baseline === null ? ours : ours / baseline;
  const measured = target?.of === 'ratio' ? ratio : ours;
  const met = target === null || (target.op === '<=' ? measured <= target.value : measured >= target.value);
  return {
    id,
    name,
    unit,
    ours,
    baseline,
    ratio,
    target,
    met,
    ...(detail === undefined ? {} : { detail }),
    ...(floor === undefined ? {} : { floor }),
  };
}

/**
 * A clean environment for measured runs: config and data in a temp dir, no colour, no proxy, and
 * none of NODE_OPTIONS or NODE_EXTRA_CA_CERTS (which, where set, adds ~45 ms to every Node 20
 * start-up here and hides our own cost).
 */
export function env(dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    PLANTS_CONFIG_DIR: join(dir, 'config'),
    XDG_DATA_HOME: join(dir, 'data'),
    ...extra,
  };
}
