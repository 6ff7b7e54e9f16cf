import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ROOT } from './process.js';

/** A Node the start-up figures run on. */
export interface BenchNode {
  /** `Node 24.21.0`. */
  label: string;
  path: string;
  major: number;
}

function benchNode(path: string): BenchNode {
  const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  return { label: `Node ${version}`, path, major: Number(version.split('.')[0]) };
}

/**
 * The Nodes to measure on: Node 24 (the reference, the npm registry's `node` package, installed
 * into .ci/node24 from its lockfile when it is not there yet) and the machine's own (Node 20 here).
 */
export function benchNodes(): BenchNode[] {
  const node24 = `${ROOT}.ci/node24/node_modules/.bin/node`;
  if (!existsSync(node24))
    execFileSync('npm', ['ci', '--prefix', `${ROOT}.ci/node24`, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  const nodes = [benchNode(node24), benchNode(process.execPath)];
  return nodes[0]?.label === nodes[1]?.label ? nodes.slice(0, 1) : nodes;
}
