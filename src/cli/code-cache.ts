// V8 code cache for dist/: start-up without parsing and compiling our own code (README, Performance).
//
// Node 22 has this built in (module.enableCompileCache); Node 20 does not. Most of a command's
// start-up past Node's own is V8 parsing the bundled code it loads: commander, zod, the store's
// libraries. `npm run build` runs the commands once and saves, for every file of dist/, the bytecode
// of the functions they ran (build.mjs); a run then hands V8 that bytecode instead of the source.
//
// A cache V8 cannot use (another Node version, other V8 flags, a damaged file) is rejected and the
// file compiled from source as usual, only slower. V8 checks a cache against its source's length
// only, so a file edited since the build would run its old bytecode: a cache older than its file is
// not used.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { Module } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';

/** Module.prototype._compile, which Node calls with a CommonJS file's text: not in @types/node. */
interface CompilingModule {
  exports: unknown;
  require(id: string): unknown;
  _compile(content: string, filename: string): unknown;
}

/** Module's internals that Node's own `require` is made of: not in @types/node either. */
const internals = Module as unknown as {
  prototype: CompilingModule;
  _cache: NodeJS.Require['cache'];
  _resolveFilename(request: string, parent: CompilingModule, isMain: boolean, options?: { paths?: string[] }): string;
};

// This file runs as dist/cli/code-cache.js, CommonJS: __dirname is dist/cli.
const DIST = dirname(__dirname);
const CACHE = join(DIST, 'code-cache');
/** The program's main module (bin/plants.cjs), as every `require.main` names it. */
const MAIN = require.main;

/** Where the cache of a file under dist/ is kept. Plain string work: path.relative costs ~70 µs a file. */
function cacheFileOf(filename: string): string {
  return `${CACHE}${sep}${filename.slice(DIST.length + 1)}.bin`;
}

/**
 * Compiles every file of dist/ this process loads from now on with its cache, if it has a usable
 * one. With `record`, returns a function that saves the cache of each, to be called once the work
 * whose functions the cache should hold is done.
 */
export function useCodeCache(options: { record?: boolean } = {}): () => void {
  const compiled: { script: Script; filename: string }[] = [];
  // Node maps stack traces through source maps only for the files it compiles itself.
  if (process.sourceMapsEnabled) return () => undefined;
  const prototype = internals.prototype;
  const compile = prototype._compile;
  prototype._compile = function (this: CompilingModule, content: string, filename: string) {
    if (!filename.startsWith(`${DIST}${sep}`)) return compile.call(this, content, filename);
    // The wrapper Node puts around a CommonJS file, on the file's first line so line numbers hold.
    const wrapped = `(function (exports, require, module, __filename, __dirname) { ${content}\n});`;
    const script = new Script(wrapped, { filename, cachedData: options.record === true ? undefined : usableCache(filename) });
    if (options.record === true) compiled.push({ script, filename });
    const moduleFunction = script.runInThisContext() as (...args: unknown[]) => unknown;
    return moduleFunction.call(this.exports, this.exports, requireFor(this), this, filename, dirname(filename));
  };
  return () => {
    for (const { script, filename } of compiled) {
      const file = cacheFileOf(filename);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, script.createCachedData());
    }
  };
}

/**
 * The `require` Node hands a CommonJS file, as Node makes it: the module's own require, with
 * resolve, cache and main. (module.createRequire would do, at ~30 µs a file for paths never used.)
 */
function requireFor(module: CompilingModule): NodeJS.Require {
  const resolve = (request: string, options?: { paths?: string[] }) => internals._resolveFilename(request, module, false, options);
  return Object.assign((id: string) => module.require(id), { resolve, cache: internals._cache, main: MAIN }) as unknown as NodeJS.Require;
}

function usableCache(filename: string): Buffer | undefined {
  try {
    const file = cacheFileOf(filename);
    return statSync(file).mtimeMs >= statSync(filename).mtimeMs ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}
