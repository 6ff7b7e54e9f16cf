import type { Command } from 'commander';
import { PlantsError } from '../../../core/errors.js';
import type { Dispatch } from '../../program.js';

export interface ServeOptions {
  host: string;
  port: number;
  store?: string;
  tokens: string[];
  quiet: boolean;
  json: boolean;
}

export function defineServe(program: Command, dispatch: Dispatch): void {
  program
    .command('serve')
    .description('run the Plant Store service (POST /plants) on a JSON file store')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--store <path>', 'the store file (default: $PLANTS_STORE, config, or the data directory)')
    .option('--token <token>', 'a bearer token to accept (repeatable; default: $PLANTS_SERVER_TOKENS, or a new random one)', collect, [])
    .option('--quiet', 'no log line per request')
    .addHelpText(
      'after',
      '\nThe first line on stdout is the base URL, e.g. http://127.0.0.1:8080, also with --port 0.\n' +
        'SIGINT or SIGTERM: stop accepting, finish requests in flight, write, exit 0.\n\n' +
        'Examples:\n  plants serve\n  PLANTS_SERVER_TOKENS=T1,T2 plants serve --port 9000 --store ./plants.json',
    )
    .action((raw: { host: string; port: string; store?: string; token: string[]; quiet?: boolean }) => {
      const options: ServeOptions = { host: raw.host, port: port(raw.port), tokens: raw.token, quiet: raw.quiet === true, json: false };
      if (raw.store !== undefined) options.store = raw.store;
      return dispatch('serve', options);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function port(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) {
    throw new PlantsError('usage', `--port must be a number from 0 to 65535, got ${JSON.stringify(text)}`, { hint: 'see plants serve --help' });
  }
  return value;
}
