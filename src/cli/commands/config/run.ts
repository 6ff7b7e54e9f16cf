import { resolve } from 'node:path';
import type { CommandImplementation } from '../../command-implementation.js';
import { configPath, writeConfig } from '../../config/config-file.js';
import { Settings } from '../../config/resolve.js';
import { displayValue, SETTINGS, type Resolved, type SettingKey } from '../../config/settings.js';
import type { Context } from '../../context.js';
import { renderHuman, renderJson, type ConfigResult, type ShownSetting } from './render.js';

/** The options of each of the config commands: `plants config list`, `get`, `set`, `unset`, `path`. */
export type ConfigOptions = { json: boolean } & (
  | { action: 'list' | 'path' }
  | { action: 'get' | 'unset'; key: SettingKey }
  | { action: 'set'; key: SettingKey; value: string }
);

export const implementation = {
  run,
  renderHuman,
  renderJson,
} satisfies CommandImplementation<ConfigOptions, ConfigResult>;

async function run(options: ConfigOptions, ctx: Context): Promise<ConfigResult> {
  switch (options.action) {
    case 'list': {
      const settings = await Settings.load(ctx);
      return {
        action: 'list',
        settings: Object.entries(settings.all()).map(([key, found]) => shown(key as SettingKey, found, settings)),
      };
    }
    case 'get': {
      const settings = await Settings.load(ctx);
      return { action: 'get', setting: shown(options.key, settings.get(options.key), settings) };
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
      const env = SETTINGS[key].env;
      const overridden = (ctx.env[env] ?? '') !== '' ? { overriddenBy: env } : {};
      if (key === 'token') {
        // The token of the service the base URL setting names, as plants login saves it.
        const service = (await Settings.load(ctx)).require('base-url');
        await writeConfig(ctx, { tokens: new Map([[service, value]]) });
        return { action: options.action, key, service, configPath: configPath(ctx.configDir), ...overridden };
      }
      await writeConfig(ctx, { values: { [key]: value } });
      return { action: options.action, key, configPath: configPath(ctx.configDir), ...overridden };
    }
    case 'path':
      return { action: 'path', path: configPath(ctx.configDir) };
  }
}

function shown(key: SettingKey, found: Resolved, settings: Settings): ShownSetting {
  let source = found.source === 'env' ? `env ${SETTINGS[key].env}` : (found.source ?? null);
  // Saved tokens are per service: say whose this one is.
  if (key === 'token' && found.source === 'config') source = `config, for ${settings.require('base-url')}`;
  return { key, value: found.value === undefined ? null : displayValue(key, found.value), source };
}
