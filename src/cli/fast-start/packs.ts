// Packs: the files of dist/ that the timed start-up commands load (--version, a local and a remote
// create), grouped by which of those commands load each, one file a group (build.mjs). A command
// then reads and compiles three or four files instead of some twenty, each of which Node would
// resolve, read and compile on its own: ~0.25 ms a file (README, Performance).
//
// A pack holds each of its files' code, unchanged, in the wrapper function Node would put around
// it. A file changed since its pack was written (newer than the pack) is loaded from the file.
import { readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { CodeCache } from './code-cache.js';
import { DIST, inDist, nodeModules, runModule, type ModuleFunction, type NodeModule } from './node-modules.js';

const PACKS = join(DIST, 'packs');

/** A pack as loaded: its files' code by their path under dist/, and when it was written. */
interface Pack {
  modules: Record<string, ModuleFunction>;
  writtenMs: number;
}

/** Loads every file of dist/ that has a pack from its pack, from now on. */
export function usePacks(cache: CodeCache): void {
  const index = readIndex();
  if (index === undefined) return;
  const packs = new Map<string, Pack | undefined>();
  const packOf = (name: string) => {
    if (!packs.has(name)) packs.set(name, loadPack(cache, name));
    return packs.get(name);
  };
  const require = nodeModules.prototype.require;
  nodeModules.prototype.require = function (this: NodeModule, id: string) {
    const filename = typeof id === 'string' && typeof this.path === 'string' ? relativeTarget(this.path, id) : undefined;
    const file = filename !== undefined && inDist(filename) ? filename.slice(DIST.length + 1) : undefined;
    const packName = file === undefined ? undefined : index.get(file);
    if (filename === undefined || file === undefined || packName === undefined) return require.call(this, id);
    const cached = nodeModules._cache[filename];
    if (cached !== undefined) return cached.exports;
    const pack = packOf(packName);
    const moduleFunction = pack?.modules[file];
    if (pack === undefined || moduleFunction === undefined || !unchangedSince(filename, pack.writtenMs)) return require.call(this, id);
    return loadModule(moduleFunction, filename, this);
  };
}

/** dist/packs/index.json: the pack of each packed file. None (a build without packs): files load one by one. */
function readIndex(): Map<string, string> | undefined {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(join(PACKS, 'index.json'), 'utf8')) as Record<string, string>));
  } catch {
    return undefined;
  }
}

/** A pack, or none if it cannot be read or compiled: its files then load one by one. */
function loadPack(cache: CodeCache, name: string): Pack | undefined {
  const filename = join(PACKS, name);
  try {
    const writtenMs = statSync(filename).mtimeMs;
    // Evaluating a pack runs none of its files' code: it only makes their functions.
    return { modules: cache.run(readFileSync(filename, 'utf8'), filename) as Pack['modules'], writtenMs };
  } catch {
    return undefined;
  }
}

function unchangedSince(filename: string, writtenMs: number): boolean {
  const stats = statSync(filename, { throwIfNoEntry: false });
  return stats !== undefined && stats.mtimeMs <= writtenMs;
}

/** What Node's Module._load does for a file it has not loaded yet, with the file's code at hand. */
function loadModule(moduleFunction: ModuleFunction, filename: string, parent: NodeModule): unknown {
  const module = new nodeModules(filename, parent);
  module.filename = filename;
  module.paths = nodeModules._nodeModulePaths(module.path);
  nodeModules._cache[filename] = module as unknown as NodeJS.Module;
  let threw = true;
  try {
    runModule(moduleFunction, module, filename);
    threw = false;
  } finally {
    if (threw) {
      delete nodeModules._cache[filename];
      const child = parent.children.indexOf(module);
      if (child !== -1) parent.children.splice(child, 1);
    }
  }
  module.loaded = true;
  return module.exports;
}

/**
 * The file a relative require names, by string work (path.join costs ~20 µs a call, before V8 has
 * optimised it). Only the forms that esbuild and bin/ write, `./file` and `../dir/file`; for any
 * other, undefined, and Node resolves it.
 */
function relativeTarget(directory: string, id: string): string | undefined {
  let rest = id;
  let base = directory;
  if (rest.startsWith('./')) rest = rest.slice(2);
  else if (!rest.startsWith('../')) return undefined;
  while (rest.startsWith('../')) {
    base = base.slice(0, base.lastIndexOf(sep));
    rest = rest.slice(3);
  }
  if (rest.includes('./')) return undefined;
  return `${base}${sep}${sep === '/' ? rest : rest.replaceAll('/', sep)}`;
}
