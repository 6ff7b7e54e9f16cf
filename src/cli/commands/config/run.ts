import { resolve } from 'node:path';
import { configPath, writeConfig } from '../../config/config-file.js';
import { Settings } from '../../config/resolve.js';
import { displayValue, SETTINGS, type Resolved, type SettingKey } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { ConfigOptions, ConfigResult, ShownSetting } from './types.js';

export { renderHuman, renderJson } from './render.js';

export async function run(options: ConfigOptions, ctx: Context): Promise<ConfigResult> {
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
