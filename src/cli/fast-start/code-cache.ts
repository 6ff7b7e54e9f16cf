// V8 code cache for dist/: start-up without parsing and compiling our own code (README, Performance).
//
// Node 22 has this built in (module.enableCompileCache); Node 20 does not. Most of a command's
// start-up past Node's own is V8 parsing the bundled code it loads: commander, zod, the store's
// libraries. `npm run build` runs the commands once and saves, for every file of dist/ they load,
// the bytecode of the functions they ran (build.mjs); a run then hands V8 that bytecode instead of
// the source.
//
// A cache V8 cannot use (another Node version, other V8 flags, a damaged file) is rejected and the
// file compiled from source as usual, only slower. V8 checks a cache against its source's length
// only, so a file edited since the build would run its old bytecode: a cache older than its file is
// not used.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';
import { DIST, inDist, nodeModules, runModule, type ModuleFunction, type NodeModule } from './node-modules.js';

const CACHE = join(DIST, 'code-cache');

/** Where the cache of a file under dist/ is kept. Plain string work: path.relative costs ~70 µs a file. */
function cacheFileOf(filename: string): string {
  return `${CACHE}${sep}${filename.slice(DIST.length + 1)}.bin`;
}

export interface CodeCache {
  /** Compiles and runs a script of dist/, with its cache if it has a usable one: what it evaluates to. */
  run(code: string, filename: string): unknown;
  /** With `record`: saves the cache of every script run so far, with the functions they have run. */
  save(): void;
}

export function codeCache(options: { record: boolean }): CodeCache {
  const compiled: { script: Script; filename: string }[] = [];
  return {
    run(code, filename) {
      const script = new Script(code, { filename, cachedData: options.record ? undefined : usableCache(filename) });
      if (options.record) compiled.push({ script, filename });
      return script.runInThisContext();
    },
    save() {
      for (const { script, filename } of compiled) {
        const file = cacheFileOf(filename);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, script.createCachedData());
      }
    },
  };
}

/** Compiles every file of dist/ that Node loads from now on through `cache`. */
export function compileDistWith(cache: CodeCache): void {
  const compile = nodeModules.prototype._compile;
  nodeModules.prototype._compile = function (this: NodeModule, content: string, filename: string) {
    if (!inDist(filename)) return compile.call(this, content, filename);
    // The wrapper Node puts around a CommonJS file, on the file's first line so line numbers hold.
    const wrapped = `(function (exports, require, module, __filename, __dirname) { ${content}\n});`;
    return runModule(cache.run(wrapped, filename) as ModuleFunction, this, filename);
  };
}

function usableCache(filename: string): Buffer | undefined {
  try {
    const file = cacheFileOf(filename);
    return statSync(file).mtimeMs >= statSync(filename).mtimeMs ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}
