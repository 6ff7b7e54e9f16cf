import type { Command } from 'commander';
import { PlantsError } from '../../../core/errors.js';
import { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_SECONDS } from '../../config/settings.js';
import type { Dispatch } from '../../program.js';

export interface CreateOptions {
  id?: string;
  name?: string;
  tag?: string;
  local: boolean;
  store?: string;
  baseUrl?: string;
  token?: string;
  timeout?: string;
  json: boolean;
}

export function defineCreate(program: Command, dispatch: Dispatch): void {
  program
    .command('create')
    .description('create a plant on the service (or in the local store with --local)')
    .option('--id <id>', 'plant id: a base-10 integer from -9223372036854775808 to 9223372036854775807')
    .option('--name <name>', 'plant name: any text up to 1,000 characters ("" is an empty name)')
    .option('--tag <tag>', 'tag giving the type of plant (optional; any text up to 1,000 characters)')
    .option('--local', 'create in the local JSON file store instead of on the service')
    .option('--store <path>', 'with --local: the store file (default: $PLANTS_STORE, config, or the data directory)')
    .option('--base-url <url>', `service address (default: $PLANTS_BASE_URL, config, or ${DEFAULT_BASE_URL})`)
    .option('--token <token>', 'bearer token (prefer plants login: flags end up in shell history)')
    .option('--timeout <seconds>', `seconds to wait for the whole exchange: connecting, sending, the answer (default ${DEFAULT_TIMEOUT_SECONDS})`)
    .option('--json', 'print the created plant, or the failure, as one JSON document on stdout')
    .addHelpText('after', '\nExamples:\n  plants create --id 1 --name Fern --tag herb\n  plants create --local --id 9223372036854775807 --name Oak --json')
    .action((raw: Record<string, string | boolean | undefined>) => dispatch('create', toCreateOptions(raw)));
}

export function toCreateOptions(raw: Record<string, string | boolean | undefined>): CreateOptions {
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
  const options: CreateOptions = { local: raw.local === true, json: raw.json === true };
  for (const key of ['id', 'name', 'tag', 'store', 'baseUrl', 'token', 'timeout'] as const) {
    const value = text(key);
    if (value !== undefined) options[key] = value;
  }
  if (options.local) {
    const remoteOnly = (['baseUrl', 'token', 'timeout'] as const).filter((key) => options[key] !== undefined);
    if (remoteOnly.length > 0) throw conflict(`${remoteOnly.map(flagName).join(', ')} cannot be used with --local`);
  } else if (options.store !== undefined) {
    throw conflict('--store only applies to --local creates: add --local, or drop --store');
  }
  return options;
}

function flagName(key: string): string {
  return `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

function conflict(message: string): PlantsError {
  return new PlantsError('usage', message, { hint: 'see plants create --help' });
}
