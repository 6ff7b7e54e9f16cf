import { PlantsError } from '../../../core/errors.js';
import { printable, thousands } from '../../../core/printable.js';
import type { IdFormat } from '../../../import/formats.js';
import type { BulkOptions } from '../../bulk/types.js';
import { usageError } from '../../command-spec.js';
import type { Context } from '../../context.js';
import { canPrompt, isYes, promptsDisabled, PROMPT_DISABLED } from '../../prompt.js';
import { targetSettings } from '../../target.js';
import { countIds } from './many.js';

const NO_TERMINAL = 'standard input, output and error are not all a terminal';

/**
 * Before `delete --from` deletes, as gh does before destructive work: --yes, or a person at a
 * terminal who is shown how many ids the file holds and answers yes (a file of one id or none is
 * not asked about). Where nobody can answer (a pipe, a file, PLANTS_PROMPT_DISABLED), or where
 * standard input carries the ids (`--from -`: it cannot carry an answer too), --yes is needed: a
 * usage error before anything is read. A dry run deletes nothing, and is never asked about. Any
 * answer but y or yes, the end of input or Ctrl-C cancels: nothing is deleted (exit 2).
 */
export async function confirmDeleteMany(bulk: BulkOptions<IdFormat>, yes: boolean, ctx: Context): Promise<void> {
  if (yes || bulk.dryRun) return;
  if (bulk.input === '-') {
    const why = '--from - reads the ids from standard input, which leaves nothing to answer "delete them?" on';
    throw usageError('delete', `${why}: give --yes (or --dry-run to check them first)`);
  }
  if (!(await canPrompt(ctx))) {
    const why = promptsDisabled(ctx.env) ? `${PROMPT_DISABLED} is set` : NO_TERMINAL;
    const ask = `delete --from asks before it deletes, and cannot ask here (${why})`;
    throw usageError('delete', `${ask}: give --yes to delete without asking`);
  }
  const count = await countIds(bulk, ctx);
  if (count <= 1) return;
  const settings = await targetSettings(bulk.target, ctx);
  const target = bulk.target.local ? settings.require('store') : settings.require('base-url');
  const [file, where] = [printable(bulk.input, Infinity), printable(target, Infinity)];
  const answer = await ctx.io.ask(`Delete the ${thousands(count)} plants listed in ${file} from ${where}? [y/N] `);
  if (!isYes(answer)) throw new PlantsError('cancelled', 'cancelled: nothing was deleted');
}
