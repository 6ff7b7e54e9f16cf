import { characterCount, LIMITS } from '../../../core/fields.js';
import { PLANT_FIELDS } from '../../../core/plant-fields.js';
import { declareCommand, defined, flagName, jsonFieldsFlag, jsonOutput, usageError } from '../../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../../target-flags.js';
import type { ListOptions } from './run.js';

/** Flags of a list of plants that a count has no use for. */
const PAGE_ONLY = ['limit', 'after', 'format'] as const;

export const command = declareCommand({
  name: 'list',
  summary: 'list plants in id order: a table, or NDJSON or CSV that plants import reads back',
  description:
    'In a pipe, each plant is a line: id, name and tag separated by tabs, control characters escaped.' +
    ' With --format ndjson or csv, each plant is written exactly as plants import reads it:' +
    ' a store moves losslessly with plants list --local --format ndjson | plants import -.' +
    ' --search finds the names that hold the text whatever its case (Unicode simple case folding: é finds É;' +
    ' no locale, no normalisation); --count prints how many plants match.',
  flags: {
    limit: { kind: 'string', value: '<n>', description: 'at most N plants, a whole number from 1', defaultFrom: 'all' },
    after: { kind: 'string', value: '<id>', description: 'only plants whose id is greater than ID' },
    tag: { kind: 'string', value: '<tag>', description: 'only plants with exactly this tag' },
    search: {
      kind: 'string',
      value: '<text>',
      description: 'only plants whose name holds TEXT, case aside ("" finds every plant)',
    },
    count: { kind: 'boolean', description: 'print how many plants match (--tag, --search); with --json, {"count": N}' },
    format: {
      kind: 'string',
      value: '<format>',
      description: 'ndjson or csv: what plants import reads, exactly; json: as --json',
      defaultFrom: 'a table on a terminal, else a line a plant',
      choices: ['ndjson', 'csv', 'json'],
    },
    noPager: {
      kind: 'boolean',
      description: 'on a terminal, write straight to it, not through the pager ($PLANTS_PAGER, $PAGER, or less)',
    },
    ...TARGET_FLAGS,
    json: jsonFieldsFlag(PLANT_FIELDS),
  },
  examples: [
    'plants list --tag herb',
    'plants list --search fern --count',
    'plants list --json id,name',
    'plants list --local --format ndjson > plants.ndjson',
  ],
  exitCodes: {
    ok: 'listed',
    refused: 'with --format csv, a plant CSV cannot carry was left out (named on stderr)',
    auth: true,
    unavailable: 'the service or store could not be used',
  },
  options: ({ flags, given }): ListOptions => {
    const { limit, after, tag, search, count, format } = flags;
    if (limit !== undefined && !/^[1-9][0-9]*$/.test(limit))
      throw usageError('list', `--limit must be a whole number from 1, got ${JSON.stringify(limit)}`);
    if (search !== undefined && characterCount(search) > LIMITS.textMaxCharacters) {
      throw usageError('list', '--search must be at most 1,000 characters: no name is longer');
    }
    const { json, fields } = jsonOutput(flags.json);
    // `--format json` is --json, as import's --format json reads what --json writes.
    const both = json && format !== undefined && format !== 'json';
    if (both) throw usageError('list', 'give --json or --format, not both');
    if (count) {
      const extra = PAGE_ONLY.filter((key) => given.has(key));
      const apply = `${extra.map(flagName).join(', ')} ${extra.length === 1 ? 'does' : 'do'} not apply`;
      const counts = '--count counts every plant that matches --tag and --search';
      if (extra.length > 0) throw usageError('list', `${counts}: ${apply}`);
      if (fields !== undefined) throw usageError('list', '--count --json writes {"count": N}: it takes no fields');
    }
    return {
      ...(limit === undefined ? {} : { limit: Number(limit) }),
      ...defined({ after, tag, search, format: format === 'json' ? undefined : format }),
      count,
      target: targetOptions('list', flags),
      json: json || format === 'json',
      ...(fields === undefined ? {} : { fields }),
      pager: !flags.noPager,
    };
  },
  load: () => import('./run.js'),
});
