// Packs: the files of dist/ that the timed start-up commands load (--version, a local and a remote
// create), grouped by which of those commands load each, one file a group (build.mjs). A command
// then reads and compiles three or four files instead of some twenty, each of which Node would
// resolve, read and compile on its own: ~0.25 ms a file (README, Performance).
//
// A pack holds each of its files' code, unchanged, in the wrapper function Node would put around
// it; index.json names each file's pack, and the file's size when it was packed. A file whose size
// has changed since, or that is newer than its pack (edited, replaced, deleted), is loaded as Node
// loads it, from the file. Stack traces of packed code point into the pack (with
// --enable-source-maps there are no packs, and Node maps traces into src/ as usual).
import { readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { CodeCache } from './code-cache.js';
import { DIST, distPath, Module, runModule, type ModuleFunction, type NodeModule } from './node-modules.js';

const PACKS = join(DIST, 'packs');

/** What index.json says of a packed file. */
interface Packed {
  pack: string;
  size: number;
}

/** A pack as loaded: its code of each of its files, by their paths under dist/, and when it was written. */
interface Pack {
  modules: Record<string, ModuleFunction>;
  writtenMs: number;
}

/** Loads every file of dist/ that has a pack from its pack, from now on, while the file is as it was packed. */
export function usePacks(cache: CodeCache): void {
  const index = readIndex();
  if (index === undefined) return;
  const packs = new Map<string, Pack | undefined>();
  const packNamed = (name: string) => {
    if (!packs.has(name)) packs.set(name, loadPack(cache, name));
    return packs.get(name);
  };
  const require = Module.prototype.require;
  Module.prototype.require = function (this: NodeModule, id: string) {
    const filename = typeof id === 'string' && typeof this.path === 'string' ? relativeTarget(this.path, id) : undefined;
    const file = filename === undefined ? undefined : distPath(filename);
    const packed = file === undefined ? undefined : index.get(file);
    // (filename and file are checked again for TypeScript: both are defined where packed is.)
    if (packed === undefined || filename === undefined || file === undefined) return require.call(this, id);
    const cached = Module._cache[filename] as NodeModule | undefined;
    if (cached !== undefined) {
      // As Node's Module._load: a module required again becomes a child of each parent too.
      if (Array.isArray(this.children) && !this.children.includes(cached)) this.children.push(cached);
      return cached.exports;
    }
    const pack = packNamed(packed.pack);
    const moduleFunction = pack !== undefined && Object.hasOwn(pack.modules, file) ? pack.modules[file] : undefined;
    if (pack === undefined || typeof moduleFunction !== 'function' || !asPacked(filename, packed.size, pack.writtenMs)) return require.call(this, id);
    return loadModule(moduleFunction, filename, this);
  };
}

/** dist/packs/index.json, its well-formed entries. None (a build without packs, or a damaged one): files load one by one. */
function readIndex(): Map<string, Packed> | undefined {
  let index: unknown;
  try {
    index = JSON.parse(readFileSync(join(PACKS, 'index.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof index !== 'object' || index === null) return undefined;
  const isPacked = (entry: unknown): entry is Packed => typeof (entry as Packed | null)?.pack === 'string' && typeof (entry as Packed).size === 'number';
  return new Map(Object.entries(index).filter((entry): entry is [string, Packed] => isPacked(entry[1])));
}

/** A pack, or none if it cannot be read or compiled or is not one (an empty file, say): its files then load one by one. */
function loadPack(cache: CodeCache, name: string): Pack | undefined {
  const filename = join(PACKS, name);
  try {
    const writtenMs = statSync(filename).mtimeMs;
    // Evaluating a pack runs none of its files' code: it only makes their functions.
    const modules = cache.run(readFileSync(filename, 'utf8'), filename);
    return typeof modules === 'object' && modules !== null ? { modules: modules as Pack['modules'], writtenMs } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a file looks as it was when it was packed: the same size, and not newer than its pack.
 * (Not its exact time: copies, and npm's packages, keep times to the second at best.)
 */
function asPacked(filename: string, size: number, packWrittenMs: number): boolean {
  const stats = statSync(filename, { throwIfNoEntry: false });
  return stats !== undefined && stats.isFile() && stats.size === size && stats.mtimeMs <= packWrittenMs;
}

/**
 * What Node's Module._load does for a file it has not loaded yet, with the file's code at hand.
 * (Not done: the warning Node prints when code reads a missing property of a module that is
 * still loading, in a require cycle: a warning only, nothing that changes what runs.)
 */
function loadModule(moduleFunction: ModuleFunction, filename: string, parent: NodeModule): unknown {
  const module = new Module(filename, parent);
  module.filename = filename;
  module.paths = Module._nodeModulePaths(module.path);
  Module._cache[filename] = module as unknown as NodeJS.Module;
  let threw = true;
  try {
    runModule(moduleFunction, module, filename);
    threw = false;
  } finally {
    if (threw) {
      delete Module._cache[filename];
      const child = parent.children.indexOf(module);
      if (child !== -1) parent.children.splice(child, 1);
    }
  }
  module.loaded = true;
  return module.exports;
}

/**
 * The file a relative require (`./…` or `../…`) names, by string work: path.join costs ~20 µs a
 * call before V8 has optimised it. Undefined for any other require, and for a path with `.` or
 * `..` further on, which Node resolves instead.
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
