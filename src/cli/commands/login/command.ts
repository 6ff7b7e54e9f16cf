import type { Command } from 'commander';
import type { Dispatch } from '../../program.js';

export interface LoginOptions {
  token?: string;
  withToken: boolean;
  baseUrl?: string;
  json: boolean;
}

export function defineLogin(program: Command, dispatch: Dispatch): void {
  program
    .command('login')
    .description('save the token (and the service address) in the config file, readable by you only')
    .option('--token <token>', 'the bearer token (ends up in shell history: prefer --with-token)')
    .option('--with-token', 'read the token from standard input')
    .option('--base-url <url>', 'the service address, e.g. http://127.0.0.1:8080 (kept if not given)')
    .option('--json', 'print the outcome as one JSON document on stdout')
    .addHelpText('after', '\nExamples:\n  echo "$TOKEN" | plants login --with-token --base-url https://plants.example.com\n  plants login --token T --base-url http://127.0.0.1:8080')
    .action((raw: { token?: string; withToken?: boolean; baseUrl?: string; json?: boolean }) => {
      const options: LoginOptions = { withToken: raw.withToken === true, json: raw.json === true };
      if (raw.token !== undefined) options.token = raw.token;
      if (raw.baseUrl !== undefined) options.baseUrl = raw.baseUrl;
      return dispatch('login', options);
    });
}
