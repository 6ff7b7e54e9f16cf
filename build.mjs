// Builds dist/: the CLI bundled by esbuild into CommonJS files that load one another only when a
// command needs them (each command's run, the store, the HTTP clients and the server are files of
// their own, loaded by require() when used).
//
// CommonJS, measured against an ES module bundle of the same code: `plants --version` took 1.48×
// `node -e 0` against 1.64× on Node 24 (docs/performance.md). Two steps, because esbuild splits
// code into shared chunks only for ES modules: bundle as ES modules with splitting, then turn each
// output file into CommonJS, its import() calls into require().
import { build } from 'esbuild';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { startPath } from './build-start-path.mjs';

// Source maps beside dist/'s files, for the tests (test/e2e/startup.test.ts reads which sources a
// run loads from them) and for whoever debugs a build; the package ships neither them (package.json
// "files") nor a comment pointing at them: they map to src/, which it does not ship.
const common = { platform: 'node', target: 'node20', logLevel: 'warning' };
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));

/**
 * The CLI imports package.json for its version (src/cli/process-context.ts): the bundle gets that
 * alone, not the scripts and devDependencies of the whole file. (A named import of `version`,
 * which esbuild would tree-shake, is refused by tsc under "module": "NodeNext".)
 */
const packageVersionOnly = {
  name: 'package-version-only',
  setup(plugin) {
    const path = resolve('package.json');
    plugin.onLoad({ filter: /[/\\]package\.json$/ }, (args) =>
      args.path === path ? { contents: JSON.stringify({ version }), loader: 'json' } : undefined,
    );
  },
};

/**
 * What every command line but `--version` runs on, one chunk (build-start-path.mjs): the program
 * (commander, every declaration, the context and the local store it opens), and the runs of the
 * commands a shell loop reads with. Not create's (its own two small files measured no better
 * inside) nor the HTTP client's (no better either), nor the server's, PostgreSQL's or an import's.
 */
const START_PATH = ['src/cli/run-process.ts', 'src/cli/commands/get/run.ts', 'src/cli/commands/list/run.ts'];

await rm('dist', { recursive: true, force: true });
const { metafile } = await build({
  ...common,
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  bundle: true,
  splitting: true,
  format: 'esm',
  outdir: 'dist/esm',
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  plugins: [packageVersionOnly, startPath(START_PATH)],
  // Linked: the second step finds each map by its comment, and maps its output through it to src/.
  sourcemap: 'linked',
});
// Written before the second step on purpose: esbuild then converts the files under dist/ with the
// interop of compiled ES modules, in which a chunk's default export stays its default export.
await writeFile('dist/package.json', '{ "type": "commonjs" }\n');
await build({
  ...common,
  entryPoints: ['dist/esm/**/*.js'],
  format: 'cjs',
  outdir: 'dist',
  outbase: 'dist/esm',
  supported: { 'dynamic-import': false },
  sourcemap: 'external',
});
await rm('dist/esm', { recursive: true });
// The bundle holds the code of the packages it uses (so the package installs none): their licences
// ship with it.
await writeFile('dist/THIRD-PARTY-NOTICES.txt', thirdPartyNotices(Object.keys(metafile.inputs)));

// The man page (package.json "man"), made of the declarations the help is made of: its maker
// (src/cli/man-page.ts) bundled in memory and run here, so that the package ships the page alone.
const { outputFiles } = await build({
  ...common,
  entryPoints: ['src/cli/man-page.ts'],
  bundle: true,
  format: 'esm',
  write: false,
  plugins: [packageVersionOnly],
});
const { manPage } = await import(
  `data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString('base64')}`
);
await mkdir('dist/man');
await writeFile('dist/man/plants.1', manPage(version));

/** The name, version, licence and licence text of each package a bundled file comes from. */
function thirdPartyNotices(inputs) {
  const roots = new Set(inputs.flatMap((input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
  const notices = [...roots].map((root) => {
    const { name, version, license } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
    const entries = readdirSync(root);
    const file = entries.find((entry) => /^(licen[cs]e|copying)([-.][\w.-]+)?$/i.test(entry));
    const text =
      file === undefined
        ? (licenceInReadme(root, entries) ?? `(no licence text in ${name}; its package.json says ${license})`)
        : readFileSync(`${root}/${file}`, 'utf8').trim();
    return { name, heading: `${name} ${version} (${license})`, text };
  });
  notices.sort((a, b) => a.name.localeCompare(b.name));
  const intro = 'plants bundles the code of these packages into dist/. Their licences follow.\n';
  return (
    `${intro}` +
    `${notices.map(({ heading, text }) => `\n${'='.repeat(72)}\n${heading}\n${'='.repeat(72)}\n\n${text}\n`).join('')}`
  );
}

/** The "License" section of a package's README, for the packages that ship their licence only there. */
function licenceInReadme(root, entries) {
  const readme = entries.find((entry) => /^readme(\.md)?$/i.test(entry));
  if (readme === undefined) return undefined;
  return /^#+\s*licen[cs]e\s*\n([\s\S]*?)(?=^#|(?![\s\S]))/im
    .exec(readFileSync(`${root}/${readme}`, 'utf8'))?.[1]
    ?.trim();
}
