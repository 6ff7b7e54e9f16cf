// The start path as one chunk, for build.mjs.
//
// esbuild puts each module in a chunk by the set of entry points that reach it, and every
// import() of our code is an entry point. A module that the program (run-process.ts) and any
// lazily loaded file share, such as core/errors.ts, was a chunk of its own: `plants get --local`
// loaded 33 files, most of them a few KB. Here every import() of our code goes through a stub
// that imports the start path too, so that every module the start path reaches is reached by the
// same entry points: one chunk, loaded with the program. A lazily loaded file of our code is then
// a stub that requires that chunk, and its own code where it is not on the start path (the
// server, PostgreSQL, imports, the HTTP client); nothing is loaded sooner than before but the
// start path, which every command line but `--version` loads with the program.
import { dirname, resolve } from 'node:path';

const KERNEL = 'plants-start-path';

/** `modules`: the start path, as paths from the package's root; `src`: the folder of our code. */
export function startPath(modules, src = 'src') {
  const ours = `${resolve(src)}/`;
  return {
    name: 'start-path',
    setup(plugin) {
      plugin.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.namespace !== 'file' || args.pluginData?.stub) return undefined;
        const target = await plugin.resolve(args.path, {
          kind: 'dynamic-import',
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { stub: true },
        });
        if (target.errors.length > 0 || !target.path.startsWith(ours)) return target;
        return { path: target.path, namespace: 'start-path-stub' };
      });
      // No module of ours that is loaded lazily has a default export for `export *` to leave out.
      plugin.onLoad({ filter: /.*/, namespace: 'start-path-stub' }, (args) => ({
        contents: `import '${KERNEL}';\nexport * from ${JSON.stringify(args.path)};\n`,
        resolveDir: dirname(args.path),
        loader: 'js',
      }));
      plugin.onResolve({ filter: new RegExp(`^${KERNEL}$`) }, () => ({ path: KERNEL, namespace: 'start-path' }));
      plugin.onLoad({ filter: /.*/, namespace: 'start-path' }, () => ({
        contents: modules.map((path) => `import ${JSON.stringify(resolve(path))};\n`).join(''),
        resolveDir: resolve('.'),
        loader: 'js',
      }));
    },
  };
}
