import { declareCommand, defined, JSON_FLAG, type CommandGroup } from '../../command-spec.js';
import { SERVICE_FLAGS } from '../../service-flags.js';
import type { AuthStatusOptions } from './run.js';

const status = declareCommand({
  name: 'auth status',
  summary: 'say, for each service with a saved token, whether it accepts it',
  description:
    'The check is a POST /plants of {}: a service answers 400 once the token is good, 401 when it is not; ' +
    'nothing is stored. With --base-url (or --token), only that service, with the token a command would send ' +
    'it.',
  flags: { ...SERVICE_FLAGS, json: JSON_FLAG },
  examples: ['plants auth status', 'plants auth status --base-url http://127.0.0.1:8080 --json'],
  exitCodes: {
    ok: 'every token is accepted',
    auth: 'a token is refused, or missing',
    unavailable: 'a service could not be asked',
  },
  options: ({ flags: { baseUrl, token, timeout, json } }): AuthStatusOptions => ({
    json,
    ...defined({ baseUrl, token, timeout }),
  }),
  load: () => import('./run.js'),
});

export const command: CommandGroup = {
  name: 'auth',
  summary: 'check the saved tokens',
  examples: ['plants auth status'],
  exitCodes: {
    ok: 'every token is accepted',
    auth: 'a token is refused, or missing',
    unavailable: 'a service could not be asked',
  },
  commands: [status],
};
