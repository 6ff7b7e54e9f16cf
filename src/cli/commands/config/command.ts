import { declareCommand, JSON_FLAG, usageError, type CommandGroup } from '../../command-spec.js';
import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingKey } from '../../config/settings.js';
import type { ConfigOptions } from './run.js';

const KEY = {
  name: 'key',
  description: 'a setting: one of base-url, token, store, timeout',
  required: true,
  completes: SETTING_KEYS,
} as const;
const FLAGS = { json: JSON_FLAG } as const;
const EXIT_CODES = { ok: 'done', unavailable: 'the config file could not be written' } as const;
const load = () => import('./run.js');

function settingKey(key: string): SettingKey {
  if (isSettingKey(key)) return key;
  throw usageError('config', `unknown setting ${JSON.stringify(key)}: expected one of ${SETTING_KEYS.join(', ')}`);
}

const list = declareCommand({
  name: 'config list',
  summary: 'every setting with its value and where it comes from (the token masked)',
  flags: FLAGS,
  examples: ['plants config list', 'plants config list --json'],
  exitCodes: EXIT_CODES,
  options: ({ flags: { json } }): ConfigOptions => ({ action: 'list', json }),
  load,
});

const get = declareCommand({
  name: 'config get',
  summary: 'the value of one setting (the token masked)',
  arguments: [KEY],
  flags: FLAGS,
  examples: ['plants config get base-url'],
  exitCodes: EXIT_CODES,
  options: ({ flags: { json }, args }): ConfigOptions => ({ action: 'get', key: settingKey(args.key), json }),
  load,
});

const set = declareCommand({
  name: 'config set',
  summary: 'save a setting in the config file',
  arguments: [KEY, { name: 'value', description: 'its value', required: true }],
  flags: FLAGS,
  examples: ['plants config set base-url https://plants.example.com', 'plants config set timeout 10'],
  exitCodes: EXIT_CODES,
  options: ({ flags: { json }, args }): ConfigOptions => ({
    action: 'set',
    key: settingKey(args.key),
    value: args.value,
    json,
  }),
  load,
});

const unset = declareCommand({
  name: 'config unset',
  summary: 'remove a setting from the config file',
  arguments: [KEY],
  flags: FLAGS,
  examples: ['plants config unset store'],
  exitCodes: EXIT_CODES,
  options: ({ flags: { json }, args }): ConfigOptions => ({ action: 'unset', key: settingKey(args.key), json }),
  load,
});

const path = declareCommand({
  name: 'config path',
  summary: 'the path of the config file',
  flags: FLAGS,
  examples: ['plants config path'],
  exitCodes: EXIT_CODES,
  options: ({ flags: { json } }): ConfigOptions => ({ action: 'path', json }),
  load,
});

export const command: CommandGroup = {
  name: 'config',
  summary: 'show and change settings (base-url, token, store, timeout)',
  description:
    'Keys (the environment variable of each overrides the config file):\n\n' +
    `${SETTING_KEYS.map((key) => `  ${key}  ${SETTINGS[key].describe} (env ${SETTINGS[key].env})`).join('\n')}` +
    '\n\nA value comes from the first of: flag, environment, config file, default.',
  examples: [
    'plants config set base-url https://plants.example.com',
    'plants config get base-url',
    'plants config list',
  ],
  exitCodes: EXIT_CODES,
  commands: [list, get, set, unset, path],
};
