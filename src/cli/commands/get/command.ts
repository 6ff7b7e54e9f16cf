import { bool, JSON_FLAG, text, type CommandSpec } from '../../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../../target.js';
import type { GetOptions } from './types.js';

export const command: CommandSpec<GetOptions> = {
  name: 'get',
  summary: 'show one plant, by its id',
  flags: [{ flags: '--id <id>', description: 'the plant id: a base-10 integer' }, ...TARGET_FLAGS, JSON_FLAG],
  help: '\nExit codes: 0 shown, 1 no plant with this id, 2 a bad id, 3 authentication, 4 the service or store could not be used.\n\nExamples:\n  plants get --id 1\n  plants get --local --id 9223372036854775807 --json',
  options: (input) => {
    const id = text(input, 'id');
    return { ...(id === undefined ? {} : { id }), target: targetOptions('get', input), json: bool(input, 'json') };
  },
  load: () => import('./run.js'),
};
