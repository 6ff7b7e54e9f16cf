import { join, resolve as resolvePath } from 'node:path';
import { PlantsError } from '../../core/errors.js';
import type { Context } from '../context.js';
import { readConfig, type ConfigFile } from './config-file.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_SECONDS,
  SETTINGS,
  SETTING_KEYS,
  type Resolved,
  type SettingKey,
} from './settings.js';

export type Flags = Partial<Record<SettingKey, string | undefined>>;

function defaults(ctx: Context): Partial<Record<SettingKey, string>> {
  return { 'base-url': DEFAULT_BASE_URL, store: join(ctx.dataDir, 'plants.json'), timeout: DEFAULT_TIMEOUT_SECONDS };
}

/**
 * Each setting from the first place that has it: flag, environment, config file, default. The
 * token's place in the config file is the service's: the one saved for the resolved base URL.
 */
export class Settings {
  private constructor(
    private readonly ctx: Context,
    private readonly flags: Flags,
    readonly file: ConfigFile,
  ) {}

  static async load(ctx: Context, flags: Flags = {}): Promise<Settings> {
    // A bad flag is a usage error whatever else is wrong or missing: checked before anything is read.
    for (const key of SETTING_KEYS) {
      const flag = flags[key];
      if (flag !== undefined) checked(key, flag, `--${key}`);
    }
    return new Settings(ctx, flags, await readConfig(ctx));
  }

  get(key: SettingKey): Resolved {
    const { env } = SETTINGS[key];
    const flag = this.flags[key];
    let found: Resolved;
    if (flag !== undefined) found = { value: checked(key, flag, `--${key}`), source: 'flag' };
    else if ((this.ctx.env[env] ?? '') !== '')
      found = { value: checked(key, this.ctx.env[env] as string, env), source: 'env' };
    else if (this.saved(key) !== undefined)
      found = { value: checked(key, this.saved(key) as string, 'the config file'), source: 'config' };
    else {
      const value = defaults(this.ctx)[key];
      found = value === undefined ? { value: undefined, source: undefined } : { value, source: 'default' };
    }
    // A relative store path means relative to where the user stands.
    if (key === 'store' && found.value !== undefined) found.value = resolvePath(this.ctx.cwd, found.value);
    return found;
  }

  /** What the config file holds for a setting: for the token, the one of the base URL resolved. */
  private saved(key: SettingKey): string | undefined {
    return key === 'token' ? this.file.tokens.get(this.require('base-url')) : this.file.values[key];
  }

  /** A setting that must have a value (every one but the token has a default). */
  require(key: SettingKey): string {
    return this.get(key).value as string;
  }

  all(): Record<SettingKey, Resolved> {
    return Object.fromEntries(SETTING_KEYS.map((key) => [key, this.get(key)])) as Record<SettingKey, Resolved>;
  }
}

function checked(key: SettingKey, value: string, origin: string): string {
  try {
    return SETTINGS[key].check(value);
  } catch (error) {
    if (error instanceof PlantsError) throw new PlantsError(error.code, `${error.message} (from ${origin})`);
    throw error;
  }
}
