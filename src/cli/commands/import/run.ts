import type { BulkResult } from '../../bulk/types.js';
import type { Context } from '../../context.js';
import type { ImportOptions } from './command.js';
import { boundYoungGeneration } from './young-generation.js';

export { exitCode, renderHuman, renderJson } from '../../bulk/render.js';

export async function run(options: ImportOptions, ctx: Context): Promise<BulkResult> {
  // First of all, before anything is read, locked or sent: this may run the command again, in
  // place, with a bound on V8's young generation. What the import runs is loaded after it: a
  // process run again would load it for nothing.
  boundYoungGeneration(ctx, regularFileBytes(options.input, ctx));
  return (await import('./import-rows.js')).importRows(options, ctx);
}

/**
 * The input's size where it is a regular file, named or standard input redirected from one;
 * undefined for a pipe or a terminal (not known before it is read), or a file that cannot be
 * looked at, which the import then reports in its own words.
 */
function regularFileBytes(file: string, ctx: Context): number | undefined {
  try {
    const stat = file === '-' ? ctx.fs.fstatSync(0) : ctx.fs.statSync(file);
    return stat.isFile() ? stat.size : undefined;
  } catch {
    return undefined;
  }
}
