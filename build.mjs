// Builds dist/: the CLI bundled by esbuild into CommonJS files that load one another only when a
// command needs them (each command's run, the store, the HTTP clients and the server are files of
// their own, loaded by require() when used).
//
// CommonJS, measured against an ES module bundle of the same code: `plants --version` took 1.48×
// `node -e 0` against 1.64× on Node 24 (docs/performance.md). Two steps, because esbuild splits
// code into shared chunks only for ES modules: bundle as ES modules with splitting, then turn each
// output file into CommonJS, its import() calls into require().
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';

const common = { platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

await rm('dist', { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  format: 'esm',
  outdir: 'dist/esm',
  chunkNames: 'chunks/[name]-[hash]',
});
// Written before the second step on purpose: esbuild then converts the files under dist/ with the
// interop of compiled ES modules, in which a chunk's default export stays its default export.
await writeFile('dist/package.json', '{ "type": "commonjs" }\n');
await build({
  ...common,
  entryPoints: ['dist/esm/**/*.js'],
  format: 'cjs',
  outdir: 'dist',
  outbase: 'dist/esm',
  supported: { 'dynamic-import': false },
});
await rm('dist/esm', { recursive: true });
