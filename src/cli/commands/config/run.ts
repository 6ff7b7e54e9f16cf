import { resolve } from 'node:path';
import { configPath, writeConfig } from '../../config/config-file.js';
import { Settings } from '../../config/resolve.js';
import { displayValue, SETTINGS, type Resolved, type SettingKey } from '../../config/settings.js';
import type { Context, IOStreams } from '../../context.js';
import type { CommandModule } from '../types.js';
import type { ConfigOptions } from './command.js';

/** A setting as it may be shown: a secret's value masked. */
export interface ShownSetting {
  key: SettingKey;
  value: string | null;
  source: string | null;
}

export type ConfigResult =
  | { action: 'list'; settings: ShownSetting[] }
  | { action: 'get'; setting: ShownSetting }
  | { action: 'set' | 'unset'; key: SettingKey; configPath: string; overriddenBy?: string }
  | { action: 'path'; path: string };

async function run(options: ConfigOptions, ctx: Context): Promise<ConfigResult> {
  switch (options.action) {
    case 'list': {
      const settings = await Settings.load(ctx);
      return { action: 'list', settings: Object.entries(settings.all()).map(([key, found]) => shown(key as SettingKey, found)) };
    }
    case 'get': {
      const settings = await Settings.load(ctx);
      return { action: 'get', setting: shown(options.key, settings.get(options.key)) };
    }
    case 'set':
    case 'unset': {
      const { key } = options;
      let value: string | undefined;
      if (options.action === 'set') {
        value = SETTINGS[key].check(options.value);
        // Saved absolute: a relative path would change meaning with the directory plants runs in.
        if (key === 'store') value = resolve(ctx.cwd, value);
      }
      await writeConfig(ctx.configDir, { [key]: value });
      const env = SETTINGS[key].env;
      return { action: options.action, key, configPath: configPath(ctx.configDir), ...((ctx.env[env] ?? '') !== '' ? { overriddenBy: env } : {}) };
    }
    case 'path':
      return { action: 'path', path: configPath(ctx.configDir) };
  }
}

function shown(key: SettingKey, found: Resolved): ShownSetting {
  const source = found.source === 'env' ? `env ${SETTINGS[key].env}` : (found.source ?? null);
  return { key, value: found.value === undefined ? null : displayValue(key, found.value), source };
}

function renderHuman(result: ConfigResult, io: IOStreams): void {
  const style = io.stdoutStyle;
  switch (result.action) {
    case 'list':
      for (const { key, value, source } of result.settings) {
        io.stdout.write(`${key.padEnd(9)} ${value ?? style.dim('(not set)')}${source === null ? '' : style.dim(`  (${source})`)}\n`);
      }
      return;
    case 'get':
      if (result.setting.value !== null) io.stdout.write(`${result.setting.value}\n`);
      return;
    case 'set':
    case 'unset':
      io.stderr.write(`${result.action === 'set' ? 'Saved' : 'Removed'} ${result.key} in ${result.configPath}\n`);
      if (result.overriddenBy !== undefined) {
        io.stderr.write(`${io.stderrStyle.yellow('warning:')} ${result.overriddenBy} is set and takes precedence over the config file\n`);
      }
      return;
    case 'path':
      io.stdout.write(`${result.path}\n`);
      return;
  }
}

function toJson(result: ConfigResult): unknown {
  switch (result.action) {
    case 'list':
      return Object.fromEntries(result.settings.map(({ key, value, source }) => [key, { value, source }]));
    case 'get':
      return result.setting;
    default:
      return result;
  }
}

export const command: CommandModule<ConfigOptions, ConfigResult> = { run, renderHuman, toJson };
