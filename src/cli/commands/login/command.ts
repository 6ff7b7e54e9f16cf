import { declareCommand, defined, JSON_FLAG, usageError } from '../../command-spec.js';
import type { LoginOptions } from './run.js';

export const command = declareCommand({
  name: 'login',
  summary: 'save a token for a service in the config file, readable by you only',
  description:
    'With no --token or --with-token: for the base URL a plants serve running on this machine printed, where ' +
    'it uses the token it keeps, that token, once the service accepts it (asked directly, never through a ' +
    'proxy); else, on a terminal, you are asked (input hidden).\n\n' +
    'The token is saved only once the service has accepted it (one request, which changes nothing): a refused ' +
    'token, or a service that cannot be reached, saves nothing and leaves the base URL as it was, unless ' +
    '--no-check.\n\n' +
    'Each service keeps its own token: a token is only ever sent to the service it was saved for.',
  flags: {
    baseUrl: {
      kind: 'string',
      value: '<url>',
      description: 'the service, e.g. https://plants.example.com; also saved as the base URL',
      defaultFrom: 'the base URL setting',
    },
    withToken: { kind: 'boolean', description: 'read the token from standard input (hidden, if it is a terminal)' },
    token: {
      kind: 'string',
      value: '<token>',
      description: 'the token (ends up in shell history: prefer being asked, or --with-token)',
    },
    noCheck: {
      kind: 'boolean',
      description: 'save the token without asking the service whether it takes it (one not up yet)',
    },
    json: JSON_FLAG,
  },
  examples: [
    'plants login --base-url https://plants.example.com',
    'plants login --base-url https://plants.example.com --with-token < token.txt',
    'plants login --base-url http://127.0.0.1:8080',
    'plants login --with-token --no-check < token.txt',
  ],
  exitCodes: {
    ok: 'the service accepted the token, and it was saved',
    usage: 'a usage error, or no token given where none can be asked for',
    auth: 'the service refused the token: nothing saved',
    unavailable:
      'the service could not be reached to check the token (nothing saved), or the config file could not be written',
  },
  options: ({ flags: { token, baseUrl, withToken, noCheck, json } }): LoginOptions => {
    if (token !== undefined && withToken)
      throw usageError('login', 'give the token with --token or --with-token, not both');
    return { withToken, check: !noCheck, json, ...defined({ token, baseUrl }) };
  },
  load: () => import('./run.js'),
});
