import { bool, JSON_FLAG, text, type CommandGroup } from '../../command-spec.js';
import { TARGET_FLAGS } from '../../target.js';
import type { AuthStatusOptions } from './types.js';

// The service flags of every remote command, without --local and --store.
const SERVICE_FLAGS = TARGET_FLAGS.filter((flag) => /--(base-url|token|timeout) /.test(flag.flags));

export const command: CommandGroup = {
  name: 'auth',
  summary: 'check the saved tokens',
  commands: [
    {
      name: 'auth status',
      summary: 'say, for each service with a saved token, whether it accepts it (exit 0: all do, 3: one does not, 4: one could not be asked)',
      flags: [...SERVICE_FLAGS, JSON_FLAG],
      help:
        '\nThe check is a POST /plants of {}: a service answers 400 once the token is good, 401 when it is not; nothing is\n' +
        'stored. With --base-url (or --token), only that service, with the token a command would send it.\n\n' +
        'Examples:\n  plants auth status\n  plants auth status --base-url http://127.0.0.1:8080 --json',
      options: (input): AuthStatusOptions => {
        const [baseUrl, token, timeout] = [text(input, 'baseUrl'), text(input, 'token'), text(input, 'timeout')];
        return { json: bool(input, 'json'), ...(baseUrl === undefined ? {} : { baseUrl }), ...(token === undefined ? {} : { token }), ...(timeout === undefined ? {} : { timeout }) };
      },
      load: () => import('./run.js'),
    },
  ],
};
