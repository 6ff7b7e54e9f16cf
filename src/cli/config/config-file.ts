import { join } from 'node:path';
import { PlantsError } from '../../core/errors.js';
import type { FileSystem } from '../../fs/file-system.js';
import type { Context } from '../context.js';
import { checkBaseUrl, DEFAULT_BASE_URL, isSettingKey, type SettingKey } from './settings.js';

/** The settings kept as plain values; the token is kept per service instead. */
export type PlainKey = Exclude<SettingKey, 'token'>;
export type ConfigValues = Partial<Record<PlainKey, string>>;

/**
 * config.json as read: the plain settings, and the token saved for each service, by its
 * normalised base URL (`"services": {"https://plants.example.com": {"token": "…"}}`), as gh keeps
 * one per host. A token is only ever sent to the service it was saved for.
 */
export interface ConfigFile {
  values: ConfigValues;
  tokens: ReadonlyMap<string, string>;
}

export interface ConfigChange {
  values?: Partial<Record<PlainKey, string | undefined>>;
  /** A token to save (a string) or remove (undefined) for each normalised base URL. */
  tokens?: ReadonlyMap<string, string | undefined>;
}

export function configPath(configDir: string): string {
  return join(configDir, 'config.json');
}

/** `problem` follows the path: ` is not …` or `: …`. */
function configError(path: string, problem: string, hint = 'fix it, or remove it and run plants login again'): PlantsError {
  return new PlantsError('usage', `the config file ${path}${problem}`, { hint });
}

/** Where the config file is, and the file system it is read and written through. */
export type ConfigPlace = Pick<Context, 'configDir' | 'fs'>;

/** The config file's document: a missing file is an empty one. */
function readDocument(path: string, fs: FileSystem): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new PlantsError('usage', `cannot read the config file ${path} (${(error as NodeJS.ErrnoException).code})`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw configError(path, ' is not valid JSON');
  }
  if (!isObject(document)) throw configError(path, ' is not a JSON object');
  return document;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The services and their tokens in a document. An older config kept one `token` beside its
 * `base-url`: that token belongs to that base URL (or the default one), and to no other service.
 */
function tokensOf(document: Record<string, unknown>, path: string): Map<string, string> {
  const tokens = new Map<string, string>();
  const services = document.services ?? {};
  if (!isObject(services)) throw configError(path, ': "services" must be an object of base URLs');
  for (const [url, entry] of Object.entries(services)) {
    if (!isObject(entry) || typeof entry.token !== 'string') throw configError(path, `: the service ${JSON.stringify(url)} must have a "token" string`, "fix or remove that entry of the file");
    tokens.set(baseUrlIn(url, path), entry.token);
  }
  if (typeof document.token === 'string') {
    const owner = baseUrlIn(typeof document['base-url'] === 'string' ? document['base-url'] : DEFAULT_BASE_URL, path);
    if (!tokens.has(owner)) tokens.set(owner, document.token);
  }
  return tokens;
}

function baseUrlIn(url: string, path: string): string {
  try {
    return checkBaseUrl(url);
  } catch (error) {
    throw configError(path, `: ${(error as Error).message}`);
  }
}

/** The settings in the config file. A setting of the wrong type is an error, never silently ignored. */
export async function readConfig({ configDir, fs }: ConfigPlace): Promise<ConfigFile> {
  const path = configPath(configDir);
  const document = readDocument(path, fs);
  const values: ConfigValues = {};
  for (const [key, value] of Object.entries(document)) {
    if (!isSettingKey(key)) continue;
    if (typeof value !== 'string') {
      throw configError(path, `: "${key}" must be a string, got ${value === null ? 'null' : typeof value}`, `fix it with plants config set ${key} <value>, or plants config unset ${key}`);
    }
    if (key !== 'token') values[key] = value;
  }
  return { values, tokens: tokensOf(document, path) };
}

/**
 * Applies `change`, keeping the rest of the file as it was; an older single token moves under
 * its service. The file is replaced whole and durably (durable-file.ts: conf, which we used
 * before, writes through atomically, which truncates the file on a full disk), mode 0600, in a
 * directory of mode 0700.
 */
export async function writeConfig({ configDir, fs }: ConfigPlace, change: ConfigChange): Promise<string> {
  const path = configPath(configDir);
  const document = readDocument(path, fs);
  // Loaded here: reading the config is on every command's path, writing it is rare.
  const [{ replaceFileSync }, { makeDirectory }, { ownFileWriteError }] = await Promise.all([
    import('../../fs/durable-file.js'),
    import('../../fs/make-directory.js'),
    import('./own-file-error.js'),
  ]);
  const tokens = tokensOf(document, path);
  delete document.token;
  for (const [key, value] of Object.entries(change.values ?? {})) {
    if (value === undefined) delete document[key];
    else document[key] = value;
  }
  for (const [url, token] of change.tokens ?? []) {
    if (token === undefined) tokens.delete(url);
    else tokens.set(url, token);
  }
  if (tokens.size > 0) document.services = Object.fromEntries([...tokens].map(([url, token]) => [url, { token }]));
  else delete document.services;
  try {
    makeDirectory(configDir, 0o700, fs);
    // A directory made before, or by someone else's umask: the token is nobody else's business.
    if ((fs.statSync(configDir).mode & 0o077) !== 0) fs.chmodSync(configDir, 0o700);
    // Tab-indented, as conf wrote it: a file a person may read and edit.
    replaceFileSync(path, `${JSON.stringify(document, undefined, '\t')}\n`, { mode: 0o600, fs });
    return path;
  } catch (error) {
    throw ownFileWriteError('the config file', path, error, `check that you may write ${configDir}, or point PLANTS_CONFIG_DIR at another directory`);
  }
}
