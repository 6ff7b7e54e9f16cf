import { chmodSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PlantsError } from '../../core/errors.js';
import { isSettingKey, type SettingKey } from './settings.js';

export type ConfigValues = Partial<Record<SettingKey, string>>;

export function configPath(configDir: string): string {
  return join(configDir, 'config.json');
}

/**
 * Reads the config file conf writes, without loading conf: reading is on every command's path,
 * and conf (with ajv) costs ~80 ms to import. A missing file is an empty config. Read with node:fs,
 * as conf reads it: node:fs/promises costs ~0.7 ms to load, and a create on the service needs it for
 * nothing else.
 */
export async function readConfig(configDir: string): Promise<ConfigValues> {
  const path = configPath(configDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new PlantsError('usage', `cannot read the config file ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new PlantsError('usage', `the config file ${path} is not valid JSON`, { hint: `fix it, or remove it and run plants login again` });
  }
  const values: ConfigValues = {};
  if (typeof document === 'object' && document !== null) {
    for (const [key, value] of Object.entries(document)) {
      if (isSettingKey(key) && typeof value === 'string') values[key] = value;
    }
  }
  return values;
}

/** Sets (string) or removes (undefined) keys, through conf, with the file readable by its owner only. */
export async function writeConfig(configDir: string, changes: Partial<Record<SettingKey, string | undefined>>): Promise<string> {
  const { default: Conf } = await import('conf');
  try {
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const conf = new Conf<ConfigValues>({ cwd: configDir, configName: 'config', projectName: 'plants', configFileMode: 0o600 });
    for (const [key, value] of Object.entries(changes) as [SettingKey, string | undefined][]) {
      if (value === undefined) conf.delete(key);
      else conf.set(key, value);
    }
    // conf sets the mode when it writes a file; make sure of it even when there was nothing to write.
    chmodSync(conf.path, 0o600);
    return conf.path;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new PlantsError('usage', `cannot write the config file ${configPath(configDir)} (${reason})`, { cause: error });
  }
}
