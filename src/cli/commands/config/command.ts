import { bool, JSON_FLAG, usageError, type CommandGroup, type CommandSpec, type ParsedInput } from '../../command-spec.js';
import { isSettingKey, SETTING_KEYS, SETTINGS, type SettingKey } from '../../config/settings.js';
import type { ConfigOptions } from './types.js';

const KEYS_HELP = `\nKeys:\n${SETTING_KEYS.map((key) => `  ${key.padEnd(9)} ${SETTINGS[key].describe} (env ${SETTINGS[key].env})`).join('\n')}`;

const KEY = { name: 'key', description: 'a setting', required: true, completes: SETTING_KEYS } as const;

function settingKey(key: string): SettingKey {
  if (isSettingKey(key)) return key;
  throw usageError('config', `unknown setting ${JSON.stringify(key)}: expected one of ${SETTING_KEYS.join(', ')}`);
}

/** A command of the group: the same flags and implementation, its own arguments and options. */
function configCommand(name: string, summary: string, options: (input: ParsedInput) => ConfigOptions, args: CommandSpec['arguments'] = []): CommandSpec<ConfigOptions> {
  return { name: `config ${name}`, summary, arguments: args, flags: [JSON_FLAG], options, load: () => import('./run.js') };
}

const json = (input: ParsedInput) => bool(input, 'json');
const arg = (input: ParsedInput, index: number) => input.args[index] as string;

export const command: CommandGroup = {
  name: 'config',
  summary: 'show and change settings (base-url, token, store, timeout)',
  help: `${KEYS_HELP}\n\nA value comes from the first of: flag, environment, config file, default.`,
  commands: [
    configCommand('list', 'every setting with its value and where it comes from (the token masked)', (input) => ({ action: 'list', json: json(input) })),
    configCommand('get', 'the value of one setting (the token masked)', (input) => ({ action: 'get', key: settingKey(arg(input, 0)), json: json(input) }), [KEY]),
    configCommand(
      'set',
      'save a setting in the config file',
      (input) => ({ action: 'set', key: settingKey(arg(input, 0)), value: arg(input, 1), json: json(input) }),
      [KEY, { name: 'value', description: 'its value', required: true }],
    ),
    configCommand('unset', 'remove a setting from the config file', (input) => ({ action: 'unset', key: settingKey(arg(input, 0)), json: json(input) }), [KEY]),
    configCommand('path', 'the path of the config file', (input) => ({ action: 'path', json: json(input) })),
  ],
};
