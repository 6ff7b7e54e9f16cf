import { PLANT_FIELDS } from '../../../core/plant-fields.js';
import { declareCommand, jsonFieldsFlag, jsonOutput, usageError } from '../../command-spec.js';
import { idArgument } from '../../id-argument.js';
import { TARGET_FLAGS, targetOptions } from '../../target-flags.js';
import type { GetOptions } from './run.js';

export const command = declareCommand({
  name: 'get',
  summary: 'show one plant, by its id',
  arguments: [{ name: 'id', description: 'the plant id: a base-10 integer (or give it with --id)', required: false }],
  flags: {
    id: { kind: 'string', value: '<id>', description: 'the plant id, as a flag' },
    ...TARGET_FLAGS,
    json: jsonFieldsFlag(PLANT_FIELDS, 'the plant'),
  },
  examples: ['plants get 1', 'plants get --local 9223372036854775807 --json', 'plants get 1 --json name'],
  exitCodes: {
    ok: 'the plant was shown',
    refused: 'no plant with this id',
    auth: true,
    unavailable: 'the service or store could not be used',
  },
  options: ({ flags, args }): GetOptions => {
    const id = idArgument('get', { argument: args.id, flag: flags.id });
    if (id === undefined) throw usageError('get', "give the plant's id with --id, or as the argument: plants get <id>");
    return { id, target: targetOptions('get', flags), ...jsonOutput(flags.json) };
  },
  load: () => import('./run.js'),
});
