import { exitCode, renderHuman, renderJson } from '../../bulk/render.js';
import type { BulkResult } from '../../bulk/types.js';
import type { CommandImplementation } from '../../command-implementation.js';
import type { Context } from '../../context.js';
import { boundYoungGeneration } from '../../young-generation.js';
import type { ImportOptions } from './import-rows.js';

export const implementation = {
  run,
  renderHuman,
  renderJson,
  exitCode,
} satisfies CommandImplementation<ImportOptions, BulkResult>;

async function run(options: ImportOptions, ctx: Context): Promise<BulkResult> {
  // First of all, before anything is read, locked or sent: this may run the command again, in
  // place, with a bound on V8's young generation. What the import runs is loaded after it: a
  // process run again would load it for nothing.
  boundYoungGeneration(ctx, inputBytes(options.input, ctx));
  return (await import('./import-rows.js')).importRows(options, ctx);
}

/**
 * The input's size where it is known before it is read: a regular file's (named, or standard
 * input redirected from one). Undefined for a pipe or a socket, which may bring any amount. 0 for
 * anything else: a terminal (a person typing), a device such as /dev/null, or a path that cannot
 * be looked at, which the import then refuses in its own words.
 */
function inputBytes(input: string, ctx: Context): number | undefined {
  try {
    const stat = input === '-' ? ctx.fs.fstatSync(0) : ctx.fs.statSync(input);
    if (stat.isFile()) return stat.size;
    return stat.isFIFO() || stat.isSocket() ? undefined : 0;
  } catch {
    return 0;
  }
}
