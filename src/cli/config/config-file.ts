import { join } from 'node:path';
import { isPlantsError, PlantsError } from '../../core/errors.js';
import { printable } from '../../core/printable.js';
import type { FileSystem } from '../../fs/file-system.js';
import type { Context } from '../context.js';
import { checkBaseUrl, DEFAULT_BASE_URL, isSettingKey, SETTINGS, type SettingKey } from './settings.js';

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
function configError(
  path: string,
  problem: string,
  hint = 'fix it, or remove it and run plants login again',
): PlantsError {
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
    if (!isObject(entry) || typeof entry.token !== 'string')
      throw configError(
        path,
        `: the service ${JSON.stringify(url)} must have a "token" string`,
        'fix or remove that entry of the file',
      );
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

/**
 * The settings in the config file, each checked as it is read: a setting of the wrong type, or
 * with a value that cannot work (`"timeout": "abc"`), is an error that names it for every command
 * that reads the file (a --local one too), never silently ignored, nor an error for some commands
 * only. A number setting may be a JSON number (`"timeout": 10`); `config set` writes a string.
 */
export async function readConfig({ configDir, fs }: ConfigPlace): Promise<ConfigFile> {
  const path = configPath(configDir);
  const document = readDocument(path, fs);
  const values: ConfigValues = {};
  for (const [key, value] of Object.entries(document)) {
    if (!isSettingKey(key)) continue;
    const fix = `fix it with plants config set ${key} <value>, or plants config unset ${key}`;
    const numeric = 'numeric' in SETTINGS[key];
    const text = typeof value === 'string' ? value : numeric && typeof value === 'number' ? String(value) : undefined;
    if (text === undefined) {
      const got = value === null ? 'null' : typeof value;
      throw configError(path, `: "${key}" must be a ${numeric ? 'number or a string' : 'string'}, got ${got}`, fix);
    }
    // The token is checked where it is sent: a bad one must not keep logout from removing it.
    if (key === 'token') continue;
    try {
      SETTINGS[key].check(text);
    } catch (error) {
      throw isPlantsError(error) ? configError(path, `: "${key}": ${error.message}`, fix) : error;
    }
    values[key] = text;
  }
  return { values, tokens: tokensOf(document, path) };
}

/** How long a change to the config file waits for another plants process changing it. */
const LOCK_WAIT_MS = 30_000;

/**
 * Applies `change`, keeping the rest of the file as it was; an older single token moves under
 * its service. The file is replaced whole and durably (durable-file.ts: conf, which we used
 * before, writes through atomically, which truncates the file on a full disk), mode 0600, in a
 * directory of mode 0700. Read and written under a lock (`config.json.lock`, as a store's): two
 * logins at once would otherwise each write the file as it read it, and one token would be lost.
 */
export async function writeConfig(place: ConfigPlace & Pick<Context, 'io'>, change: ConfigChange): Promise<string> {
  const { configDir, fs } = place;
  const path = configPath(configDir);
  // Loaded here: reading the config is on every command's path, writing it is rare.
  const [{ replaceFileSync }, { makeDirectory }, { ownFileWriteError }, { lockStore }] = await Promise.all([
    import('../../fs/durable-file.js'),
    import('../../fs/make-directory.js'),
    import('./own-file-error.js'),
    import('../../store/file/store-lock.js'),
  ]);
  const cannotWrite = (error: unknown) =>
    ownFileWriteError(
      'the config file',
      path,
      error,
      `check that you may write ${configDir}, or point PLANTS_CONFIG_DIR at another directory`,
    );
  try {
    makeDirectory(configDir, 0o700, fs);
    // A directory made before, or by someone else's umask: the token is nobody else's business.
    if ((fs.statSync(configDir).mode & 0o077) !== 0) fs.chmodSync(configDir, 0o700);
  } catch (error) {
    throw cannotWrite(error);
  }
  const waiting = () =>
    void place.io.stderr.write(
      `plants: waiting for ${printable(path, Infinity)}: another plants process is changing it (a killed one ` +
        'holds it for 12 s at most)\n',
    );
  let lock: Awaited<ReturnType<typeof lockStore>>;
  try {
    lock = await lockStore(path, LOCK_WAIT_MS, waiting, fs);
  } catch (error) {
    if (isPlantsError(error) && error.code === 'store_locked')
      throw new PlantsError(
        'config_io',
        `the config file ${path} has been in use by another plants process for ${LOCK_WAIT_MS / 1000} s: ` +
          'nothing was changed',
        { hint: 'try again once it is done' },
      );
    throw cannotWrite(error);
  }
  try {
    return applyChange(
      path,
      readDocument(path, fs),
      change,
      (text) => replaceFileSync(path, text, { mode: 0o600, fs, beforeRename: () => lock.confirm() }),
      cannotWrite,
    );
  } finally {
    lock.release();
  }
}

/** The change made to the document read, written whole by `write`. */
function applyChange(
  path: string,
  document: Record<string, unknown>,
  change: ConfigChange,
  write: (text: string) => void,
  cannotWrite: (error: unknown) => PlantsError,
): string {
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
    // Tab-indented, as conf wrote it: a file a person may read and edit.
    write(`${JSON.stringify(document, undefined, '\t')}\n`);
    return path;
  } catch (error) {
    throw cannotWrite(error);
  }
}
