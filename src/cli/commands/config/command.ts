import type { Command } from 'commander';
import { PlantsError } from '../../../core/errors.js';
import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingKey } from '../../config/settings.js';
import type { Dispatch } from '../../program.js';

export type ConfigOptions =
  | { action: 'list'; json: boolean }
  | { action: 'get'; key: SettingKey; json: boolean }
  | { action: 'set'; key: SettingKey; value: string; json: boolean }
  | { action: 'unset'; key: SettingKey; json: boolean }
  | { action: 'path'; json: boolean };

const KEYS_HELP = `\nKeys:\n${SETTING_KEYS.map((key) => `  ${key.padEnd(9)} ${SETTINGS[key].describe} (env ${SETTINGS[key].env})`).join('\n')}`;

export function defineConfig(program: Command, dispatch: Dispatch): void {
  const config = program
    .command('config')
    .description('show and change settings (base-url, token, store, timeout)')
    .addHelpText('after', `${KEYS_HELP}\n\nA value comes from the first of: flag, environment, config file, default.`);
  const json = (raw: { json?: boolean }) => raw.json === true;
  config
    .command('list')
    .description('every setting with its value and where it comes from (the token masked)')
    .option('--json', 'one JSON document on stdout')
    .action((raw) => dispatch('config', { action: 'list', json: json(raw) }));
  config
    .command('get <key>')
    .description('the value of one setting (the token masked)')
    .option('--json', 'one JSON document on stdout')
    .action((key: string, raw) => dispatch('config', { action: 'get', key: settingKey(key), json: json(raw) }));
  config
    .command('set <key> <value>')
    .description('save a setting in the config file')
    .option('--json', 'one JSON document on stdout')
    .action((key: string, value: string, raw) => dispatch('config', { action: 'set', key: settingKey(key), value, json: json(raw) }));
  config
    .command('unset <key>')
    .description('remove a setting from the config file')
    .option('--json', 'one JSON document on stdout')
    .action((key: string, raw) => dispatch('config', { action: 'unset', key: settingKey(key), json: json(raw) }));
  config
    .command('path')
    .description('the path of the config file')
    .option('--json', 'one JSON document on stdout')
    .action((raw) => dispatch('config', { action: 'path', json: json(raw) }));
}

function settingKey(key: string): SettingKey {
  if (isSettingKey(key)) return key;
  throw new PlantsError('usage', `unknown setting ${JSON.stringify(key)}: expected one of ${SETTING_KEYS.join(', ')}`, {
    hint: 'see plants config --help',
  });
}
