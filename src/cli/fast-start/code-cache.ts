// V8 code cache for dist/: start-up without parsing and compiling our own code (README, Performance).
//
// Node 22 has this built in (module.enableCompileCache); Node 20 does not. Most of a command's
// start-up past Node's own is V8 parsing the bundled code it loads: commander, zod, the store's
// libraries. `npm run build` runs the commands once and saves, for each pack (packs.ts) and each
// file of dist/ outside a pack that they load, the bytecode of the functions they ran (build.mjs);
// a run then hands V8 that bytecode instead of the source.
//
// A cache V8 cannot use (another Node version, other V8 flags, a damaged file) is rejected and the
// code compiled from source as usual, only slower. V8 checks a cache against its source's length
// only, so a file edited since the build would run its old bytecode: a cache older than its file is
// not used.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';
import { DIST, distPath, Module, runModule, wrapped, type ModuleFunction, type NodeModule } from './node-modules.js';

const CACHE = join(DIST, 'code-cache');

/** Where the cache of a file under dist/ is kept. Plain string work: path.relative costs ~70 µs a file. */
function cacheFileOf(filename: string): string | undefined {
  const path = distPath(filename);
  return path === undefined ? undefined : `${CACHE}${sep}${path}.bin`;
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
        if (file === undefined) continue;
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, script.createCachedData());
      }
    },
  };
}

/** Compiles every file of dist/ that Node loads from now on through `cache`. */
export function compileDistWith(cache: CodeCache): void {
  const compile = Module.prototype._compile;
  Module.prototype._compile = function (this: NodeModule, content: string, filename: string) {
    if (distPath(filename) === undefined) return compile.call(this, content, filename);
    return runModule(cache.run(wrapped(content), filename) as ModuleFunction, this, filename);
  };
}

function usableCache(filename: string): Buffer | undefined {
  const file = cacheFileOf(filename);
  if (file === undefined) return undefined;
  try {
    return statSync(file).mtimeMs >= statSync(filename).mtimeMs ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}
