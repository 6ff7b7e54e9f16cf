import { bool, JSON_FLAG, text, usageError, type CommandSpec } from '../../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../../target.js';
import { LIST_FORMATS, type ListFormat, type ListOptions } from './types.js';

export const command: CommandSpec<ListOptions> = {
  name: 'list',
  summary: 'list plants in id order: a table, or NDJSON or CSV that plants import reads back',
  flags: [
    { flags: '--limit <n>', description: 'at most N plants (default: all)' },
    { flags: '--after <id>', description: 'only plants whose id is greater than ID' },
    { flags: '--tag <tag>', description: 'only plants with exactly this tag' },
    { flags: '--format <format>', description: 'ndjson or csv: what plants import reads, exactly (default: a table on a terminal, else a line a plant)', completes: LIST_FORMATS },
    ...TARGET_FLAGS,
    JSON_FLAG,
  ],
  help:
    '\nIn a pipe, each plant is a line: id, name and tag separated by tabs, control characters escaped.\n' +
    'With --format ndjson or csv, each plant is written exactly as plants import reads it: a store moves\n' +
    'losslessly with plants list --local --format ndjson | plants import -.\n\n' +
    'Examples:\n  plants list --tag herb\n  plants list --local --format ndjson > plants.ndjson',
  options: (input) => {
    const usage = (message: string) => usageError('list', message);
    const limitText = text(input, 'limit');
    if (limitText !== undefined && !/^[1-9][0-9]*$/.test(limitText)) throw usage(`--limit must be a whole number from 1, got ${JSON.stringify(limitText)}`);
    const format = text(input, 'format');
    if (format !== undefined && !LIST_FORMATS.includes(format as ListFormat)) throw usage(`--format must be one of ${LIST_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
    const json = bool(input, 'json');
    if (json && format !== undefined) throw usage('give --json or --format, not both');
    const after = text(input, 'after');
    const tag = text(input, 'tag');
    return {
      ...(limitText === undefined ? {} : { limit: Number(limitText) }),
      ...(after === undefined ? {} : { after }),
      ...(tag === undefined ? {} : { tag }),
      ...(format === undefined ? {} : { format: format as ListFormat }),
      target: targetOptions('list', input),
      json,
    };
  },
  load: () => import('./run.js'),
};
