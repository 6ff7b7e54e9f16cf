import { PLANT_FIELDS } from '../../../core/plant-fields.js';
import { declareCommand, defined, jsonFieldsFlag, jsonOutput, usageError } from '../../command-spec.js';
import { idArgument } from '../../id-argument.js';
import { TARGET_FLAGS, targetOptions } from '../../target-flags.js';
import type { UpdateOptions } from './run.js';

export const command = declareCommand({
  name: 'update',
  summary: 'change the name or tag of a plant, by its id',
  description:
    'Changes only what is given, on the service (PATCH /plants/{id}) or in the local store with --local, and ' +
    'prints the plant as it now is.',
  arguments: [{ name: 'id', description: 'the plant id: a base-10 integer (or give it with --id)', required: false }],
  flags: {
    id: { kind: 'string', value: '<id>', description: 'the plant id, as a flag' },
    name: { kind: 'string', value: '<name>', description: 'the new name: any text up to 1,000 characters' },
    tag: { kind: 'string', value: '<tag>', description: 'the new tag: any text up to 1,000 characters' },
    noTag: { kind: 'boolean', description: 'remove the tag' },
    ...TARGET_FLAGS,
    json: jsonFieldsFlag(PLANT_FIELDS, 'the plant'),
  },
  examples: [
    'plants update 1 --name "Boston fern"',
    'plants update --id 1 --tag fern',
    'plants update --local 1 --no-tag --json',
  ],
  exitCodes: {
    ok: 'the plant is as given (changed, or so already)',
    refused: 'no plant with this id',
    auth: true,
    unavailable: 'the service or store could not be used',
  },
  options: ({ flags, args }): UpdateOptions => {
    const id = idArgument('update', { argument: args.id, flag: flags.id });
    if (id === undefined)
      throw usageError('update', "give the plant's id with --id, or as the argument: plants update <id>");
    const { name, tag, noTag } = flags;
    if (name === undefined && tag === undefined && !noTag)
      throw usageError('update', 'nothing to change: give --name, --tag or --no-tag');
    // Text: checked against the schema of a change when it runs, as create checks its flags.
    const change = { ...defined({ name }), ...(noTag ? { tag: null } : defined({ tag })) };
    return { id, change, target: targetOptions('update', flags), ...jsonOutput(flags.json) };
  },
  load: () => import('./run.js'),
});
