import { declareCommand, defined, JSON_FLAG, usageError } from '../../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../../target-flags.js';
import type { ListOptions } from './run.js';

export const command = declareCommand({
  name: 'list',
  summary: 'list plants in id order: a table, or NDJSON or CSV that plants import reads back',
  description:
    'In a pipe, each plant is a line: id, name and tag separated by tabs, control characters escaped. With --format ndjson or csv, each plant is written exactly as plants import reads it: a store moves losslessly with plants list --local --format ndjson | plants import -.',
  flags: {
    limit: { kind: 'string', value: '<n>', description: 'at most N plants, a whole number from 1', defaultFrom: 'all' },
    after: { kind: 'string', value: '<id>', description: 'only plants whose id is greater than ID' },
    tag: { kind: 'string', value: '<tag>', description: 'only plants with exactly this tag' },
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
    json: JSON_FLAG,
  },
  examples: ['plants list --tag herb', 'plants list --local --format ndjson > plants.ndjson'],
  exitCodes: { ok: 'listed', refused: 'with --format csv, a plant CSV cannot carry was left out (named on stderr)', auth: true, unavailable: 'the service or store could not be used' },
  options: ({ flags }): ListOptions => {
    const { limit, after, tag, format } = flags;
    if (limit !== undefined && !/^[1-9][0-9]*$/.test(limit)) throw usageError('list', `--limit must be a whole number from 1, got ${JSON.stringify(limit)}`);
    // `--format json` is --json, as import's --format json reads what --json writes.
    if (flags.json && format !== undefined && format !== 'json') throw usageError('list', 'give --json or --format, not both');
    const json = flags.json || format === 'json';
    return {
      ...(limit === undefined ? {} : { limit: Number(limit) }),
      ...defined({ after, tag, format: format === 'json' ? undefined : format }),
      target: targetOptions('list', flags),
      json,
      pager: !flags.noPager,
    };
  },
  load: () => import('./run.js'),
});
