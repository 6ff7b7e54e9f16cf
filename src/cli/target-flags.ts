import { defined, flagName, usageError, type Flags, type FlagValues } from './command-spec.js';
import { SERVICE_FLAGS } from './service-flags.js';

// Declarations only, read at start-up by every command's options: what a target does at run time
// (settings, the store, the client) is target.ts, loaded with the command.

/**
 * The flags that say where a command works: the local store, or a service. Declared once, for every command that has
 * them.
 */
export const TARGET_FLAGS = {
  local: { kind: 'boolean', description: 'use the local JSON file store instead of the service', inherited: true },
  store: {
    kind: 'string',
    value: '<path>',
    description: 'with --local: the store file',
    defaultFrom: '$PLANTS_STORE, config, or the data directory',
    completes: 'file',
    inherited: true,
  },
  ...SERVICE_FLAGS,
} as const satisfies Flags;

/** Where a command works, as its flags say; unset flags fall back to the settings. */
export type Target =
  { local: true; store?: string } | { local: false; baseUrl?: string; token?: string; timeout?: string };

/** The target of a command line: `--local` (with `--store`), or the service (with its flags), never a mix. */
export function targetOptions(command: string, flags: FlagValues<typeof TARGET_FLAGS>): Target {
  const { local, store, baseUrl, token, timeout } = flags;
  const service = defined({ baseUrl, token, timeout });
  const given = Object.keys(service) as (keyof typeof SERVICE_FLAGS)[];
  if (local) {
    if (given.length > 0) throw usageError(command, `${given.map(flagName).join(', ')} cannot be used with --local`);
    return { local: true, ...defined({ store }) };
  }
  if (store !== undefined) throw usageError(command, '--store only applies with --local: add --local, or drop --store');
  return { local: false, ...service };
}
