// What bin/plants.cjs turns on before it loads the program, to load dist/ faster without changing
// what any file of it does (README, Performance): packs, a few files for the twenty or so a command
// loads (packs.ts), and V8's code cache of each (code-cache.ts).
import { codeCache, compileDistWith } from './code-cache.js';
import { usePacks } from './packs.js';

export { packSource } from './node-modules.js';

/**
 * Turns both on for this process. With `record` (the build's training run), returns a function
 * that saves the code cache of what has run by then.
 */
export function fastStart(options: { record?: boolean } = {}): () => void {
  // Node maps stack traces through source maps only for the files it compiles itself.
  if (process.sourceMapsEnabled) return () => undefined;
  const cache = codeCache({ record: options.record === true });
  compileDistWith(cache);
  usePacks(cache);
  return () => cache.save();
}
