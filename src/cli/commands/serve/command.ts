import { bool, text, usageError, type CommandSpec } from '../../command-spec.js';
import type { ServeOptions } from './types.js';

export const command: CommandSpec<ServeOptions> = {
  name: 'serve',
  summary: 'run the Plant Store service (POST /plants, and the GET and DELETE extensions) on a JSON file store',
  flags: [
    { flags: '--host <host>', description: 'address to listen on (default: "127.0.0.1")' },
    { flags: '--port <port>', description: 'port to listen on, 0 for any free port (default: "8080")' },
    { flags: '--store <path>', description: 'the store file (default: $PLANTS_STORE, config, or the data directory)', completes: 'file' },
    { flags: '--token <token>', description: 'a bearer token to accept (repeatable; default: $PLANTS_SERVER_TOKENS, or a new random one)', repeatable: true },
    { flags: '--quiet', description: 'no log line per request' },
  ],
  help:
    '\nThe first line on stdout is the base URL, e.g. http://127.0.0.1:8080, also with --port 0.\n' +
    'SIGINT or SIGTERM: stop accepting, finish requests in flight, write, exit 0.\n\n' +
    'Examples:\n  plants serve\n  PLANTS_SERVER_TOKENS=T1,T2 plants serve --port 9000 --store ./plants.json',
  options: (input) => {
    const portText = text(input, 'port') ?? '8080';
    if (!/^\d+$/.test(portText) || Number(portText) > 65535) throw usageError('serve', `--port must be a number from 0 to 65535, got ${JSON.stringify(portText)}`);
    const store = text(input, 'store');
    const tokens = input.flags.token;
    return {
      host: text(input, 'host') ?? '127.0.0.1',
      port: Number(portText),
      ...(store === undefined ? {} : { store }),
      tokens: Array.isArray(tokens) ? tokens : [],
      quiet: bool(input, 'quiet'),
    };
  },
  load: () => import('./run.js'),
};
