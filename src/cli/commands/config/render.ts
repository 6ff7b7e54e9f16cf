import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';
import type { SettingKey } from '../../config/settings.js';

/** A setting as it may be shown: a secret's value masked. */
export interface ShownSetting {
  key: SettingKey;
  value: string | null;
  source: string | null;
}

export type ConfigResult =
  | { action: 'list'; settings: ShownSetting[] }
  | { action: 'get'; setting: ShownSetting }
  | {
      action: 'set' | 'unset';
      key: SettingKey;
      configPath: string;
      overriddenBy?: string;
      /** For the token: the service it is saved for. */ service?: string;
    }
  | { action: 'path'; path: string };

export function renderHuman(result: ConfigResult, io: IOStreams): void {
  const style = io.stdoutStyle;
  switch (result.action) {
    case 'list':
      for (const { key, value, source } of result.settings) {
        io.stdout.write(
          `${key.padEnd(9)} ${value === null ? style.dim('(not set)') : printable(value, Infinity)}` +
            `${source === null ? '' : style.dim(`  (${source})`)}\n`,
        );
      }
      return;
    case 'get':
      if (result.setting.value !== null) io.stdout.write(`${printable(result.setting.value, Infinity)}\n`);
      return;
    case 'set':
    case 'unset':
      io.stderr.write(
        `${result.action === 'set' ? 'Saved' : 'Removed'} ${result.key}` +
          `${result.service === undefined ? '' : ` for ${printable(result.service, Infinity)}`} in ` +
          `${printable(result.configPath, Infinity)}\n`,
      );
      if (result.overriddenBy !== undefined) {
        io.stderr.write(
          `${io.stderrStyle.yellow('warning:')} ${result.overriddenBy} is set and takes precedence over the ` +
            'config file\n',
        );
      }
      return;
    case 'path':
      io.stdout.write(`${printable(result.path, Infinity)}\n`);
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

export function renderJson(result: ConfigResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
