import type { PlantsClient, PlantsClientOptions } from '../client/client-options.js';
import { dirname } from 'node:path';
import { PlantsError } from '../core/errors.js';
import type { PlantStore } from '../core/store.js';
import { Settings } from './config/resolve.js';
import type { Context } from './context.js';
import type { Target } from './target-flags.js';

/** The settings of a target: its flags over the environment, the config file and the defaults. */
export function targetSettings(target: Target, ctx: Context): Promise<Settings> {
  return Settings.load(
    ctx,
    target.local
      ? { store: target.store }
      : { 'base-url': target.baseUrl, token: target.token, timeout: target.timeout },
  );
}

/**
 * The local store the settings name, opened (read and checked). A store named (by a flag, the
 * environment or the config) in a directory that does not exist is a mistyped path, not an empty
 * store: refused, unless the command is one that makes it (a create, an import).
 */
export async function openLocalStore(
  settings: Settings,
  ctx: Context,
  { makes = false, stop }: { makes?: boolean; stop?: AbortSignal } = {},
): Promise<{ store: PlantStore; path: string }> {
  const path = settings.require('store');
  if (!makes && settings.get('store').source !== 'default' && !isDirectory(ctx, dirname(path))) {
    throw new PlantsError('store_io', `there is no store at ${path}: its directory ${dirname(path)} does not exist`, {
      hint: 'check --store (or PLANTS_STORE, or the store setting)',
    });
  }
  return { store: await ctx.openStore({ kind: 'file', path, ...(stop === undefined ? {} : { stop }) }), path };
}

function isDirectory(ctx: Pick<Context, 'fs'>, path: string): boolean {
  try {
    return ctx.fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The HTTP client for the service the settings point at, with their token and timeout. No token
 * is `not_logged_in` (exit 3) before anything is sent.
 */
export async function serviceClient(
  settings: Settings,
  ctx: Context,
  bulk: Pick<PlantsClientOptions, 'connections' | 'retry' | 'stop' | 'onFewerConnections'> = {},
): Promise<{ client: PlantsClient; baseUrl: string }> {
  // A bad base URL or timeout (a usage error) is reported before a missing token.
  const baseUrl = settings.require('base-url');
  const timeoutSeconds = Number(settings.require('timeout'));
  const token = settings.get('token').value;
  if (token === undefined) {
    // Saved tokens belong to their own services: name them, so a missing one is no mystery.
    const others = [...settings.file.tokens.keys()];
    const elsewhere =
      others.length === 0 ? '' : ` (tokens are saved for ${others.join(', ')}, and are sent only there)`;
    throw new PlantsError('not_logged_in', `no token for ${baseUrl}${elsewhere}`, {
      hint: `run plants login --base-url ${baseUrl} (or set PLANTS_TOKEN), or use --local`,
    });
  }
  checkProxyVariables(ctx.env);
  const client = await ctx.httpClient({
    baseUrl,
    token,
    timeoutSeconds,
    env: ctx.env,
    userAgent: `plants/${ctx.version}`,
    ...bulk,
    ...apiTrace(ctx),
  });
  return { client, baseUrl };
}

/** PLANTS_DEBUG=api: every request and answer on stderr, as GH_DEBUG=api does for gh. */
export function apiTrace(ctx: Pick<Context, 'env' | 'io'>): Pick<PlantsClientOptions, 'trace'> {
  return ctx.env.PLANTS_DEBUG === 'api' ? { trace: (text) => void ctx.io.stderr.write(text) } : {};
}

/**
 * A proxy variable that names no proxy is a usage error that names it, before anything is sent:
 * the client would fail on it deep inside the first request.
 */
export function checkProxyVariables(env: Context['env']): void {
  for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
      throw new PlantsError(
        'usage',
        `${name} is not a proxy URL: ${JSON.stringify(maskCredentials(value))} (expected e.g. ` +
          'http://proxy.example.com:3128)',
        {
          hint: `fix or unset ${name}`,
        },
      );
    }
  }
}

/**
 * A proxy URL as it may be shown, also one that does not parse: what stands before its last `@`
 * (after the scheme) is a user name and password, shown as `user:***`, or `***` where there is no
 * `:` (a token as the user name).
 */
export function maskCredentials(value: string): string {
  const at = value.lastIndexOf('@');
  if (at === -1) return value;
  const scheme = value.indexOf('://');
  const start = scheme !== -1 && scheme < at ? scheme + 3 : 0;
  const colon = value.indexOf(':', start);
  const shown = colon === -1 || colon > at ? '***' : `${value.slice(start, colon)}:***`;
  return `${value.slice(0, start)}${shown}${value.slice(at)}`;
}
