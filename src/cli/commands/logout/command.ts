import { bool, JSON_FLAG, text, type CommandSpec } from '../../command-spec.js';
import type { LogoutOptions } from './types.js';

export const command: CommandSpec<LogoutOptions> = {
  name: 'logout',
  summary: "remove a service's saved token from the config file (the base URL setting is kept)",
  flags: [{ flags: '--base-url <url>', description: 'the service (default: the base URL setting)' }, JSON_FLAG],
  options: (input) => {
    const baseUrl = text(input, 'baseUrl');
    return { json: bool(input, 'json'), ...(baseUrl === undefined ? {} : { baseUrl }) };
  },
  load: () => import('./run.js'),
};
