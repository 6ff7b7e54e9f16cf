import { declareCommand, defined, JSON_FLAG } from '../../command-spec.js';
import type { LogoutOptions } from './run.js';

export const command = declareCommand({
  name: 'logout',
  summary: "remove a service's saved token from the config file (the base URL setting is kept)",
  flags: {
    baseUrl: { kind: 'string', value: '<url>', description: 'the service', defaultFrom: 'the base URL setting' },
    json: JSON_FLAG,
  },
  examples: ['plants logout', 'plants logout --base-url https://plants.example.com'],
  exitCodes: {
    ok: 'logged out: its token removed',
    refused: 'no token saved for the service: nothing to remove',
    unavailable: 'the config file could not be written',
  },
  options: ({ flags: { baseUrl, json } }): LogoutOptions => ({ json, ...defined({ baseUrl }) }),
  load: () => import('./run.js'),
});
