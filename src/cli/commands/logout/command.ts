import { bool, JSON_FLAG, type CommandSpec, type OutputOptions } from '../../command-spec.js';

export const command: CommandSpec<OutputOptions> = {
  name: 'logout',
  summary: 'remove the saved token from the config file (the base URL is kept)',
  flags: [JSON_FLAG],
  options: (input) => ({ json: bool(input, 'json') }),
  load: () => import('./run.js'),
};
