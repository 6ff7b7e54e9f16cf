import { bool, JSON_FLAG, text, usageError, type CommandSpec } from '../../command-spec.js';
import type { LoginOptions } from './types.js';

export const command: CommandSpec<LoginOptions> = {
  name: 'login',
  summary: 'save the token (and the service address) in the config file, readable by you only',
  flags: [
    { flags: '--token <token>', description: 'the bearer token (ends up in shell history: prefer --with-token)' },
    { flags: '--with-token', description: 'read the token from standard input' },
    { flags: '--base-url <url>', description: 'the service address, e.g. http://127.0.0.1:8080 (kept if not given)' },
    JSON_FLAG,
  ],
  help: '\nExamples:\n  echo "$TOKEN" | plants login --with-token --base-url https://plants.example.com\n  plants login --token T --base-url http://127.0.0.1:8080',
  options: (input) => {
    const token = text(input, 'token');
    const baseUrl = text(input, 'baseUrl');
    if (token !== undefined && bool(input, 'withToken')) throw usageError('login', 'give the token with --token or --with-token, not both');
    return { withToken: bool(input, 'withToken'), json: bool(input, 'json'), ...(token === undefined ? {} : { token }), ...(baseUrl === undefined ? {} : { baseUrl }) };
  },
  load: () => import('./run.js'),
};
