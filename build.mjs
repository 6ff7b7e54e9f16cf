// Builds dist/: the CLI as CommonJS files that load one another only when a command needs them.
//
// CommonJS because Node 20 starts a CommonJS program sooner than an ES module one: it reads each
// file synchronously instead of through its ES module loader (README, Performance). Two steps
// because esbuild splits code into shared chunks only for ES modules: bundle as ES modules with
// splitting, then turn each output file into CommonJS, its imports into require() calls. Then
// the commands whose start-up counts run once, to pack the files each loads into a few
// (dist/packs/) and to save V8's code cache of what they ran (dist/code-cache/).
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const common = { platform: 'node', target: 'node20', sourcemap: true, logLevel: 'warning' };

/**
 * Modules that dependencies load as they load, for what plants never or barely uses, get
 * stand-ins:
 * - commander requires node:child_process, for executable subcommands, which plants has none of:
 *   1-3 ms of every start. Its stand-in loads the real module on first use.
 * - signal-exit 3 (proper-lockfile's) requires node:assert for one check of its argument: ~1.2 ms,
 *   and loading node:assert makes Node create process.stderr (node:net when stderr is a pipe,
 *   ~2.5 ms more). Its stand-in makes the same check.
 * - write-file-atomic requires node:worker_threads for the thread's id, which it puts in its temp
 *   files' names; it loads node:stream too. plants writes stores from its main thread only, whose
 *   id is 0, as the stand-in says.
 * - proper-lockfile requires graceful-fs, its default file system, which loads node:stream and
 *   node:fs/promises and patches node:fs. plants always passes its own (store-lock.ts), so the
 *   default is never used: the stand-in is node:fs.
 * Those two cost a create --local ~5 ms, and a test checks that it loads none of what they load.
 */
export const builtinStandIns = {
  name: 'builtin-stand-ins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(child_process|assert|worker_threads|graceful-fs)$/ }, ({ path, importer }) => {
      const name = path.replace(/^node:/, '');
      return STAND_INS[name].requiredBy.test(importer) ? { path: name, namespace: 'stand-in' } : undefined;
    });
    build.onLoad({ filter: /.*/, namespace: 'stand-in' }, ({ path }) => ({ contents: STAND_INS[path].source, loader: 'js' }));
  },
};

const STAND_INS = {
  child_process: {
    requiredBy: /[\\/]node_modules[\\/]commander[\\/]/,
    source: "module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });",
  },
  worker_threads: {
    requiredBy: /[\\/]node_modules[\\/]write-file-atomic[\\/]/,
    source: 'module.exports = { threadId: 0 };',
  },
  'graceful-fs': {
    requiredBy: /[\\/]node_modules[\\/]proper-lockfile[\\/]/,
    source: "module.exports = require('node:fs');",
  },
  assert: {
    requiredBy: /[\\/]node_modules[\\/]signal-exit[\\/]/,
    source: 'module.exports = { equal(actual, expected, message) { if (actual != expected) throw new Error(message); } };',
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
    plugins: [builtinStandIns],
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
  // Loaded before everything else, to load the rest: a file of its own, sharing no chunk.
  await build({ ...common, entryPoints: ['src/cli/fast-start/index.ts'], bundle: true, format: 'cjs', outfile: 'dist/cli/fast-start.js' });
}

/** The commands whose start-up the bench times (figures 1-3), as the build runs them. */
const startUpCommands = (serviceUrl) => ({
  version: ['--version'],
  local: ['create', '--local', '--id', '1', '--name', 'Fern', '--tag', 'herb'],
  remote: ['create', '--id', '2', '--name', 'Fern', '--base-url', serviceUrl],
});

/**
 * Packs the files the start-up commands load, then saves V8's code cache of what the commands run
 * (src/cli/fast-start/). Both need the commands run: each in a process of its own, against a
 * stand-in for plants serve, in an empty environment (none of the user's proxies, colours or
 * PLANTS_ settings) but for a temporary home, config and store.
 */
async function buildFastStart() {
  const home = await mkdtemp(join(tmpdir(), 'plants-build-'));
  // Answers a create as plants serve would, for the client's code to run.
  const service = createServer((request, response) => {
    request.resume().on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":2,"name":"Fern"}'));
  });
  try {
    await new Promise((listening, failed) => service.once('error', failed).listen(0, '127.0.0.1', listening));
    const serviceUrl = `http://127.0.0.1:${service.address().port}`;
    const loads = {};
    for (const [name, argv] of Object.entries(startUpCommands(serviceUrl))) {
      const list = join(home, `${name}.loads.json`);
      await runThisScript(['--loads', list, ...argv], home, name);
      loads[name] = JSON.parse(await readFile(list, 'utf8'));
    }
    await writePacks(loads);
    // Its own process, because V8 takes a cache only from a process with the same flags as the one
    // that made it: a plain `node`, as the bin runs.
    await runThisScript(['--code-cache', serviceUrl], home, 'training');
  } finally {
    service.close();
    await rm(home, { recursive: true, force: true });
  }
}

/** Runs `node build.mjs ...args` (below); fails the build if it fails, with what it printed. */
async function runThisScript(args, home, store) {
  const env = { HOME: home, PLANTS_CONFIG_DIR: join(home, 'config'), PLANTS_STORE: join(home, `${store}.json`), PLANTS_TOKEN: 'build' };
  // Windows cannot start a process without these.
  for (const name of ['SystemRoot', 'TEMP', 'TMP']) if (process.platform === 'win32' && process.env[name] !== undefined) env[name] = process.env[name];
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (text) => (output += text));
  const [code, signal] = await once(child, 'close');
  if (code !== 0) throw new Error(`node build.mjs ${args.join(' ')} failed (exit ${code ?? signal}):\n${output}`);
}

/** Runs plants in this process: fails if it exits other than `expected`. */
async function runPlants(argv, expected = 0) {
  const { main } = createRequire(import.meta.url)('./dist/cli/process-context.js');
  const code = await main(argv);
  if (code !== expected) throw new Error(`plants ${argv.join(' ')}: exit ${code}, expected ${expected}`);
}

/** `--loads <list> <argv...>`: runs one command and writes the list of dist/ files it loaded, by their `/`-separated paths under dist/. */
async function listLoads(list, argv) {
  await runPlants(argv);
  const dist = `${join(dirname(fileURLToPath(import.meta.url)), 'dist')}${sep}`;
  const files = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.startsWith(dist));
  await writeFile(list, JSON.stringify(files.map((file) => file.slice(dist.length).replaceAll(sep, '/'))));
}

/**
 * dist/packs/: each file a start-up command loads goes into one pack with the files that the same
 * start-up commands load, as the code of a function in an object literal, by its path under dist/;
 * index.json says which pack, and the file's size, for the loader to check that the file is still
 * as packed (src/cli/fast-start/packs.ts). Files no start-up command loads stay as they are.
 */
async function writePacks(loads) {
  const commandsOf = new Map();
  for (const [command, files] of Object.entries(loads)) for (const file of files) commandsOf.set(file, [...(commandsOf.get(file) ?? []), command]);
  const packs = new Map();
  for (const [file, commands] of commandsOf) {
    const pack = `${commands.join('+')}.js`;
    packs.set(pack, [...(packs.get(pack) ?? []), file]);
  }
  await mkdir('dist/packs');
  const { packSource } = createRequire(import.meta.url)('./dist/cli/fast-start.js');
  const index = {};
  for (const [pack, files] of packs) {
    const modules = [];
    for (const file of files) {
      index[file] = { pack, size: (await stat(join('dist', file))).size };
      // Its source map comment would point from the pack to a map of another file. (With source
      // maps on, there are no packs: Node loads the file, whose comment points to its map.)
      modules.push([file, (await readFile(join('dist', file), 'utf8')).replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n')]);
    }
    await writeFile(join('dist/packs', pack), packSource(modules));
  }
  await writeFile('dist/packs/index.json', `${JSON.stringify(index, null, 2)}\n`);
}

/** `--code-cache <service url>`: runs the commands, and saves the code cache of every pack and other dist/ file they ran. */
async function trainCodeCache(serviceUrl) {
  const saveCodeCache = createRequire(import.meta.url)('./dist/cli/fast-start.js').fastStart({ record: true });
  const rows = join(process.env.HOME, 'plants.ndjson');
  await writeFile(rows, '{"id":3,"name":"Fern"}\n{"id":4,"name":"Ivy","tag":"vine"}\n');
  const { version, local, remote } = startUpCommands(serviceUrl);
  await runPlants(version);
  await runPlants(['create', '--help']);
  await runPlants(local);
  await runPlants(local, 1); // the same id again: a conflict
  await runPlants(remote);
  await runPlants(['import', '--local', rows]);
  saveCodeCache();
}

// The bench imports the plugin above for its floor programs; `node build.mjs` builds dist/.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, ...args] = process.argv.slice(2);
  if (mode === '--loads') await listLoads(args[0], args.slice(1));
  else if (mode === '--code-cache') await trainCodeCache(args[0]);
  else {
    await buildDist();
    await buildFastStart();
  }
}
