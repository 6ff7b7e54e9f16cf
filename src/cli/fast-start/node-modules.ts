// The parts of Node's CommonJS loader that the fast start takes over for dist/: Node's own require
// is made of them, but @types/node does not declare them.
import { dirname, sep } from 'node:path';

/** A CommonJS module as Node's loader makes it. */
export interface NodeModule {
  id: string;
  path: string;
  filename: string;
  exports: unknown;
  loaded: boolean;
  paths: string[];
  children: NodeModule[];
  require(id: string): unknown;
  /** Runs a CommonJS file's text: Node calls it with the text it has read. */
  _compile(content: string, filename: string): unknown;
}

/**
 * Node's Module class: the constructor of this file's own module object. (The same class as
 * require('node:module').Module, which would load four more built-in modules, ~0.25 ms.)
 */
export const Module = module.constructor as unknown as {
  new (id: string, parent: NodeModule): NodeModule;
  prototype: NodeModule;
  _cache: NodeJS.Require['cache'];
  _extensions: NodeJS.Require['extensions'];
  _nodeModulePaths(directory: string): string[];
  _resolveFilename(request: string, parent: NodeModule, isMain: boolean, options?: { paths?: string[] }): string;
  _resolveLookupPaths(request: string, parent: NodeModule): string[] | null;
};

// This file runs bundled into dist/cli/fast-start.js, CommonJS: __dirname is dist/cli.
export const DIST = dirname(__dirname);
/** The program's main module (bin/plants.cjs), as every `require.main` names it. */
const MAIN = require.main;

/** The arguments Node calls a CommonJS file's code with, in its wrapper function. */
export type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: NodeModule, filename: string, dirname: string) => unknown;

/** The wrapper function Node puts around CommonJS code, opened on the code's first line so that line numbers hold. */
const WRAPPER = (code: string) => `function (exports, require, module, __filename, __dirname) { ${code}\n}`;

/** A file's code in Node's wrapper, as a script that evaluates to the function. */
export const wrapped = (code: string) => `(${WRAPPER(code)});`;

/**
 * A pack's text (packs.ts): a script that evaluates to an object of each file's code in Node's
 * wrapper, by the file's `/`-separated path under dist/. build.mjs writes packs with it.
 */
export function packSource(files: Iterable<readonly [path: string, code: string]>): string {
  let source = '({\n';
  for (const [path, code] of files) source += `${JSON.stringify(path)}: ${WRAPPER(code)},\n`;
  return `${source}})\n`;
}

/** A file's path under dist/, `/`-separated, as packs and their index name files; undefined outside dist/. */
export function distPath(filename: string): string | undefined {
  if (!filename.startsWith(`${DIST}${sep}`)) return undefined;
  const path = filename.slice(DIST.length + 1);
  return sep === '/' ? path : path.replaceAll(sep, '/');
}

/** Runs a module's code as Node would: `this` its exports, and the require Node would give it. */
export function runModule(moduleFunction: ModuleFunction, module: NodeModule, filename: string): unknown {
  return moduleFunction.call(module.exports, module.exports, requireFor(module), module, filename, dirname(filename));
}

/**
 * The `require` Node hands a CommonJS file, as Node makes it: the module's own require, with
 * resolve (and resolve.paths), cache, main and extensions. (module.createRequire would do, at ~30 µs
 * a file for paths never used.)
 */
function requireFor(module: NodeModule): NodeJS.Require {
  const resolve = Object.assign((request: string, options?: { paths?: string[] }) => Module._resolveFilename(request, module, false, options), {
    paths: (request: string) => Module._resolveLookupPaths(request, module),
  });
  return Object.assign((id: string) => module.require(id), { resolve, cache: Module._cache, main: MAIN, extensions: Module._extensions }) as unknown as NodeJS.Require;
}
