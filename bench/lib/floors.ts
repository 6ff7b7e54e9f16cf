import { build } from 'esbuild';
import { ROOT } from './process.js';

export type FloorName = 'version' | 'create-local' | 'create-remote' | 'get-local' | 'list-local';

/**
 * The floor programs of bench/floors (the least each measured command can do with the libraries
 * plants requires, used as shipped), bundled as dist/ is: CommonJS, dependencies inlined. Returns
 * the path of each bundle.
 */
export async function buildFloors(): Promise<Record<FloorName, string>> {
  const names: FloorName[] = ['version', 'create-local', 'create-remote', 'get-local', 'list-local'];
  const outdir = `${ROOT}bench/results/floors`;
  await build({
    entryPoints: names.map((name) => `${ROOT}bench/floors/${name}.mjs`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    outdir,
    outExtension: { '.js': '.cjs' },
    logLevel: 'warning',
  });
  return Object.fromEntries(names.map((name) => [name, `${outdir}/${name}.cjs`])) as Record<FloorName, string>;
}
