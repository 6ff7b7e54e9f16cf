// Builds dist/: the CLI as CommonJS files that load one another only when a command needs them.
//
// CommonJS because Node 20 starts a CommonJS program sooner than an ES module one: it reads each
// file synchronously instead of through its ES module loader (README, Performance). Two steps
// because esbuild splits code into shared chunks only for ES modules: bundle as ES modules with
// splitting, then turn each output file into CommonJS, its imports into require() calls.
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const common = { platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

/**
 * commander requires node:child_process as it loads, for executable subcommands, which plants has
 * none of: 1-3 ms of every start. It gets a stand-in that loads the real module on first use.
 */
export const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, ({ importer }) =>
      importer.includes('/node_modules/commander/') ? { path: 'child_process', namespace: 'lazy' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
      loader: 'js',
    }));
  },
};

async function buildDist() {
  await rm('dist', { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: ['src/cli/process-context.ts'],
    bundle: true,
    splitting: true,
    format: 'esm',
    outdir: 'dist/esm',
    outbase: 'src',
    chunkNames: 'chunks/[name]-[hash]',
    plugins: [lazyChildProcessForCommander],
  });
  // Written before the second step on purpose: esbuild then converts the files under dist/ with the
  // interop of compiled ES modules, in which a chunk's default export stays its default export, not
  // Node's, in which it would be the chunk's whole exports object (conf's class, say).
  await writeFile('dist/package.json', '{ "type": "commonjs" }\n');
  await build({
    ...common,
    entryPoints: ['dist/esm/**/*.js'],
    format: 'cjs',
    outdir: 'dist',
    outbase: 'dist/esm',
    // import() of a chunk becomes require(): no ES module loader at run time.
    supported: { 'dynamic-import': false },
  });
  await rm('dist/esm', { recursive: true });
}

// The bench imports the plugin above for its floor programs; `node build.mjs` builds dist/.
if (process.argv[1] === fileURLToPath(import.meta.url)) await buildDist();
