import type { Flags } from './command-spec.js';
import { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_SECONDS } from './config/settings.js';

/** The flags that say which service a command talks to, and how: of every remote command, and of auth status. */
export const SERVICE_FLAGS = {
  baseUrl: {
    kind: 'string',
    value: '<url>',
    description: 'service address',
    defaultFrom: `$PLANTS_BASE_URL, config, or ${DEFAULT_BASE_URL}`,
    inherited: true,
  },
  token: {
    kind: 'string',
    value: '<token>',
    description: 'bearer token for this call (prefer plants login: flags end up in shell history)',
    inherited: true,
  },
  timeout: {
    kind: 'string',
    value: '<seconds>',
    description: 'seconds to wait for the service',
    defaultFrom: `$PLANTS_TIMEOUT, config, or ${DEFAULT_TIMEOUT_SECONDS}`,
    inherited: true,
  },
} as const satisfies Flags;
