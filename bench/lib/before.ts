import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { ROOT } from './process.js';

/**
 * The commit before the start-up rework (issue 15: our module loader, packs, code cache and
 * stand-ins dropped for Node's compile cache): the Node 20 figures are held to within 10% of it.
 */
export const BEFORE = 'cdc1ffbca73fb891653d3acaa6e8eb38520f5966';

/**
 * bin/plants.cjs of a checkout of BEFORE, built as it built itself (npm ci runs its prepare:
 * the build, which trains its code cache on the machine's Node). Made once, under bench/results/.
 */
export function checkoutBefore(): string {
  const dir = `${ROOT}bench/results/before-${BEFORE.slice(0, 7)}`;
  const bin = `${dir}/bin/plants.cjs`;
  if (existsSync(`${dir}/dist`)) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execSync(`git -C "${ROOT}" archive ${BEFORE} | tar -x -C "${dir}"`, { stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return bin;
}
