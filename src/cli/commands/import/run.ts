import type { BulkResult } from '../../bulk/types.js';
import type { Context } from '../../context.js';
import type { ImportOptions } from './command.js';
import { boundYoungGeneration } from './young-generation.js';

export { exitCode, renderHuman, renderJson } from '../../bulk/render.js';

export async function run(options: ImportOptions, ctx: Context): Promise<BulkResult> {
  // First of all, before anything is read, locked or sent: this may run the command again, in
  // place, with a bound on V8's young generation. What the import runs is loaded after it: a
  // process run again would load it for nothing.
  boundYoungGeneration(ctx);
  return (await import('./import-rows.js')).importRows(options, ctx);
}
