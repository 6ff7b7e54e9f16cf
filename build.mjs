// Builds dist/: the CLI as CommonJS files that load one another only when a command needs them.
//
// CommonJS because Node 20 starts a CommonJS program sooner than an ES module one: it reads each
// file synchronously instead of through its ES module loader (README, Performance). Two steps
// because esbuild splits code into shared chunks only for ES modules: bundle as ES modules with
// splitting, then turn each output file into CommonJS, its imports into require() calls. Then
// the commands run once, and V8's code cache of what they ran is saved in dist/code-cache/.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  // Loaded before everything else, to compile it: a file of its own, sharing no chunk.
  await build({ ...common, entryPoints: ['src/cli/code-cache.ts'], bundle: true, format: 'cjs', outfile: 'dist/cli/code-cache.js' });
}

/**
 * Runs the commands whose start-up counts, in a process of their own, and saves the V8 code cache
 * of every dist/ file they loaded (src/cli/code-cache.ts). Their own process, because V8 takes a
 * cache only from a process with the same flags as the one that made it: a plain `node`, as the
 * bin runs. Fails the build if a command does not do what it should.
 */
function buildCodeCache() {
  // An empty environment: none of the user's proxies, colours or PLANTS_ settings.
  const training = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--code-cache'], { env: {}, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (training.status !== 0) throw new Error(`building the code cache failed (exit ${training.status ?? training.signal}):\n${training.stderr}`);
}

async function trainCodeCache() {
  const require = createRequire(import.meta.url);
  const saveCodeCache = require('./dist/cli/code-cache.js').useCodeCache({ record: true });
  const { main } = require('./dist/cli/process-context.js');
  const dir = await mkdtemp(join(tmpdir(), 'plants-build-'));
  const rows = join(dir, 'plants.ndjson');
  await writeFile(rows, '{"id":3,"name":"Fern"}\n{"id":4,"name":"Ivy","tag":"vine"}\n');
  Object.assign(process.env, { HOME: dir, PLANTS_CONFIG_DIR: join(dir, 'config'), PLANTS_STORE: join(dir, 'plants.json'), PLANTS_TOKEN: 'build' });
  // Answers a create as plants serve would, for the client's code to run.
  const server = createServer((request, response) => {
    request.resume().on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":2,"name":"Fern"}'));
  });
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
  const serverUrl = `http://127.0.0.1:${server.address().port}`;
  const runs = [
    [0, ['--version']],
    [0, ['create', '--help']],
    [0, ['create', '--local', '--id', '1', '--name', 'Fern', '--tag', 'herb']],
    [1, ['create', '--local', '--id', '1', '--name', 'Fern']],
    [0, ['create', '--id', '2', '--name', 'Fern', '--base-url', serverUrl]],
    [0, ['import', '--local', rows]],
  ];
  try {
    for (const [expected, argv] of runs) {
      const code = await main(argv);
      if (code !== expected) throw new Error(`plants ${argv.join(' ')}: exit ${code}, expected ${expected}`);
    }
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
  saveCodeCache();
}

// The bench imports the plugin above for its floor programs; `node build.mjs` builds dist/.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--code-cache') await trainCodeCache();
  else {
    await buildDist();
    buildCodeCache();
  }
}
