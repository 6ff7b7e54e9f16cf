import { PlantsError } from '../../core/errors.js';

/** A setting the CLI reads: from a flag, else the environment, else the config file, else a default. */
interface Setting {
  env: string;
  secret: boolean;
  describe: string;
  /** Throws a usage error for a value that cannot work; returns the value to keep. */
  check: (value: string) => string;
  /** A number: the config file may hold it as a JSON number (`"timeout": 10`) or a string. */
  numeric?: true;
}

export const SETTINGS = {
  'base-url': {
    env: 'PLANTS_BASE_URL',
    secret: false,
    describe: 'the Plant Store service to talk to',
    check: checkBaseUrl,
  },
  token: { env: 'PLANTS_TOKEN', secret: true, describe: 'the bearer token sent to the service', check: checkToken },
  store: { env: 'PLANTS_STORE', secret: false, describe: 'the JSON file used by --local', check: checkNotEmpty },
  timeout: {
    env: 'PLANTS_TIMEOUT',
    secret: false,
    describe: 'seconds to wait for the service',
    check: checkTimeout,
    numeric: true,
  },
} satisfies Record<string, Setting>;

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
export const DEFAULT_TIMEOUT_SECONDS = '30';

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(SETTINGS, key);
}

export type Source = 'flag' | 'env' | 'config' | 'default';

export interface Resolved {
  value: string | undefined;
  source: Source | undefined;
}

function usage(message: string): PlantsError {
  return new PlantsError('usage', message);
}

/** An http(s) URL with a host, and nothing that would be lost or leaked when /plants is appended. */
export function checkBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usage(`base URL ${JSON.stringify(value)} is not a URL (expected e.g. http://127.0.0.1:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw usage(`base URL must start with http:// or https://, got ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw usage('base URL must not contain a user name or password: use plants login --with-token');
  if (url.search !== '' || url.hash !== '') throw usage('base URL must not have a query (?…) or fragment (#…)');
  // Keep any path prefix (a service mounted under /api), without a trailing slash.
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** RFC 6750's token characters, loosened to any visible ASCII: nothing that could break a header. */
export function checkToken(value: string): string {
  if (value === '') throw usage('the token is empty');
  if (!/^[\x21-\x7e]+$/.test(value)) throw usage('the token must be printable ASCII with no spaces');
  return value;
}

function checkTimeout(value: string): string {
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw usage(
      `timeout must be a number of seconds above 0 and at most 3600 (e.g. 30 or 0.5), got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function checkNotEmpty(value: string): string {
  if (value === '') throw usage('the value is empty');
  return value;
}

/** What a user may be shown of a value: a secret never in full. */
export function displayValue(key: SettingKey, value: string): string {
  if (!SETTINGS[key].secret) return value;
  return value.length >= 16 ? `****${value.slice(-4)}` : '****';
}
