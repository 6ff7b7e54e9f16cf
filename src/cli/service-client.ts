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
