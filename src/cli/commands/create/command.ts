import { bool, JSON_FLAG, text, type CommandSpec } from '../../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../../target.js';
import type { CreateOptions } from './types.js';

export const command: CommandSpec<CreateOptions> = {
  name: 'create',
  summary: 'create a plant on the service (or in the local store with --local)',
  flags: [
    { flags: '--id <id>', description: 'plant id: a base-10 integer from -9223372036854775808 to 9223372036854775807' },
    { flags: '--name <name>', description: 'plant name: any text up to 1,000 characters ("" is an empty name; --name=--x one that looks like a flag)' },
    { flags: '--tag <tag>', description: 'tag giving the type of plant (optional; any text up to 1,000 characters)' },
    ...TARGET_FLAGS,
    JSON_FLAG,
  ],
  help: '\nExamples:\n  plants create --id 1 --name Fern --tag herb\n  plants create --local --id 9223372036854775807 --name Oak --json',
  options: (input) => {
    const plant: CreateOptions['plant'] = {};
    for (const key of ['id', 'name', 'tag'] as const) {
      const value = text(input, key);
      if (value !== undefined) plant[key] = value;
    }
    return { plant, target: targetOptions('create', input), json: bool(input, 'json') };
  },
  load: () => import('./run.js'),
};
