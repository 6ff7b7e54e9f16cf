import { bool, JSON_FLAG, text, usageError, type CommandSpec } from '../../command-spec.js';
import type { LoginOptions } from './types.js';

export const command: CommandSpec<LoginOptions> = {
  name: 'login',
  summary: 'save a token for a service in the config file, readable by you only',
  flags: [
    { flags: '--base-url <url>', description: 'the service, e.g. https://plants.example.com (default: the base URL setting); also saved as the base URL' },
    { flags: '--with-token', description: 'read the token from standard input (hidden, if it is a terminal)' },
    { flags: '--token <token>', description: 'the token (ends up in shell history: prefer being asked, or --with-token)' },
    JSON_FLAG,
  ],
  help:
    '\nWith no --token or --with-token: for the base URL a plants serve running on this machine printed, where it\n' +
    'uses the token it keeps, that token, once the service accepts it (asked directly, never through a proxy);\n' +
    'else, on a terminal, you are asked (input hidden).\n' +
    'Each service keeps its own token: a token is only ever sent to the service it was saved for.\n\n' +
    'Examples:\n  plants login --base-url https://plants.example.com\n  plants login --base-url https://plants.example.com --with-token < token.txt\n  plants login --base-url http://127.0.0.1:8080',
  options: (input) => {
    const token = text(input, 'token');
    const baseUrl = text(input, 'baseUrl');
    if (token !== undefined && bool(input, 'withToken')) throw usageError('login', 'give the token with --token or --with-token, not both');
    return { withToken: bool(input, 'withToken'), json: bool(input, 'json'), ...(token === undefined ? {} : { token }), ...(baseUrl === undefined ? {} : { baseUrl }) };
  },
  load: () => import('./run.js'),
};
