import type { Command } from 'commander';
import type { Dispatch } from '../../program.js';

export interface LogoutOptions {
  json: boolean;
}

export function defineLogout(program: Command, dispatch: Dispatch): void {
  program
    .command('logout')
    .description('remove the saved token from the config file (the base URL is kept)')
    .option('--json', 'print the outcome as one JSON document on stdout')
    .action((raw: { json?: boolean }) => dispatch('logout', { json: raw.json === true }));
}
