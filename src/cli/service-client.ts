import type { PlantsClient, PlantsClientOptions } from '../client/plants-client.js';
import { PlantsError } from '../core/errors.js';
import type { Settings } from './config/resolve.js';
import type { Context } from './context.js';

/**
 * The HTTP client for the service the settings point at, with their token and timeout. No token
 * is `not_logged_in` (exit 3) before anything is sent.
 */
export async function serviceClient(
  settings: Settings,
  ctx: Context,
  bulk: Pick<PlantsClientOptions, 'connections' | 'retry'> = {},
): Promise<{ client: PlantsClient; baseUrl: string }> {
  // A bad base URL or timeout (a usage error) is reported before a missing token.
  const baseUrl = settings.require('base-url');
  const timeoutSeconds = Number(settings.require('timeout'));
  const token = settings.get('token').value;
  if (token === undefined) {
    throw new PlantsError('not_logged_in', 'no token to authenticate with the service', {
      hint: 'run plants login --with-token (or set PLANTS_TOKEN), or use --local',
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
  });
  return { client, baseUrl };
}

/**
 * A proxy variable that names no proxy is a usage error that names it, before anything is sent:
 * undici would throw an error of its own deep inside the first request.
 */
function checkProxyVariables(env: Context['env']): void {
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
      throw new PlantsError('usage', `${name} is not a proxy URL: ${JSON.stringify(value)} (expected e.g. http://proxy.example.com:3128)`, {
        hint: `fix or unset ${name}`,
      });
    }
  }
}
