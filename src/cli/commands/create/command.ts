import { PLANT_FIELDS } from '../../../core/plant-fields.js';
import { declareCommand, defined, jsonFieldsFlag, jsonOutput } from '../../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../../target-flags.js';
import type { CreateOptions } from './run.js';

export const command = declareCommand({
  name: 'create',
  summary: 'create a plant on the service (or in the local store with --local)',
  flags: {
    id: {
      kind: 'string',
      value: '<id>',
      description: 'plant id: a base-10 integer from -9223372036854775808 to 9223372036854775807',
      required: true,
    },
    name: {
      kind: 'string',
      value: '<name>',
      description:
        'plant name: any text up to 1,000 characters ("" is an empty name; --name=--x one that looks like a flag)',
      required: true,
    },
    tag: {
      kind: 'string',
      value: '<tag>',
      description: 'tag giving the type of plant (any text up to 1,000 characters)',
    },
    ...TARGET_FLAGS,
    json: jsonFieldsFlag(PLANT_FIELDS, 'the plant'),
  },
  examples: [
    'plants create --id 1 --name Fern --tag herb',
    'plants create --local --id 9223372036854775807 --name Oak --json',
  ],
  exitCodes: {
    ok: 'the plant was created',
    refused: 'a plant with this id exists (or another 400 Error from the service)',
    auth: true,
    unavailable: 'the service or store could not be used',
  },
  options: ({ flags }): CreateOptions => {
    const { id, name, tag } = flags;
    // Text: checked against the NewPlant schema when it runs.
    const target = targetOptions('create', flags);
    return { plant: { id, name, ...defined({ tag }) }, target, ...jsonOutput(flags.json) };
  },
  load: () => import('./run.js'),
});
