import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PlantsError } from '../../core/errors.js';
import { isSettingKey, type SettingKey } from './settings.js';

export type ConfigValues = Partial<Record<SettingKey, string>>;

export function configPath(configDir: string): string {
  return join(configDir, 'config.json');
}

/**
 * The config file's document: a missing file is an empty one. Read with node:fs alone: reading is
 * on every command's path.
 */
function readDocument(path: string): Record<string, unknown> {
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
    throw new PlantsError('usage', `the config file ${path} is not valid JSON`, { hint: 'fix it, or remove it and run plants login again' });
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new PlantsError('usage', `the config file ${path} is not a JSON object`, { hint: 'fix it, or remove it and run plants login again' });
  }
  return document as Record<string, unknown>;
}

/** The settings in the config file. A setting of the wrong type is an error, never silently ignored. */
export async function readConfig(configDir: string): Promise<ConfigValues> {
  const path = configPath(configDir);
  const values: ConfigValues = {};
  for (const [key, value] of Object.entries(readDocument(path))) {
    if (!isSettingKey(key)) continue;
    if (typeof value !== 'string') {
      throw new PlantsError('usage', `the config file ${path}: "${key}" must be a string, got ${value === null ? 'null' : typeof value}`, {
        hint: `fix it with plants config set ${key} <value>, or plants config unset ${key}`,
      });
    }
    values[key] = value;
  }
  return values;
}

/**
 * Sets (string) or removes (undefined) keys, keeping the rest of the file as it was. The file is
 * replaced whole and durably (durable-file.ts: conf, which we used before, writes through
 * atomically, which truncates the file on a full disk), mode 0600, in a directory of mode 0700.
 */
export async function writeConfig(configDir: string, changes: Partial<Record<SettingKey, string | undefined>>): Promise<string> {
  const path = configPath(configDir);
  const document = readDocument(path);
  // Loaded here: reading the config is on every command's path, writing it is rare.
  const { replaceFileSync } = await import('../../store/durable-file.js');
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete document[key];
    else document[key] = value;
  }
  try {
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    // A directory made before, or by someone else's umask: the token is nobody else's business.
    if ((statSync(configDir).mode & 0o077) !== 0) chmodSync(configDir, 0o700);
    // Tab-indented, as conf wrote it: a file a person may read and edit.
    replaceFileSync(path, `${JSON.stringify(document, undefined, '\t')}\n`, { mode: 0o600 });
    return path;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new PlantsError('usage', `cannot write the config file ${path} (${reason})`, { cause: error });
  }
}
