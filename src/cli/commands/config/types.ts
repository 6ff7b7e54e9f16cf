import type { SettingKey } from '../../config/settings.js';

export type ConfigOptions =
  | { action: 'list'; json: boolean }
  | { action: 'get'; key: SettingKey; json: boolean }
  | { action: 'set'; key: SettingKey; value: string; json: boolean }
  | { action: 'unset'; key: SettingKey; json: boolean }
  | { action: 'path'; json: boolean };

/** A setting as it may be shown: a secret's value masked. */
export interface ShownSetting {
  key: SettingKey;
  value: string | null;
  source: string | null;
}

export type ConfigResult =
  | { action: 'list'; settings: ShownSetting[] }
  | { action: 'get'; setting: ShownSetting }
  | { action: 'set' | 'unset'; key: SettingKey; configPath: string; overriddenBy?: string; /** For the token: the service it is saved for. */ service?: string }
  | { action: 'path'; path: string };
