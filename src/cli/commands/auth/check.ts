import type { Context } from '../../context.js';
import { apiTrace, checkProxyVariables } from '../../target.js';

/**
 * Whether the service at `baseUrl` accepts `token` (PlantsClient.checkToken): one request, nothing
 * stored. `direct`: straight to the service, whatever proxy the environment names.
 */
export async function checkTokenWith(
  ctx: Context,
  options: { baseUrl: string; token: string; timeoutSeconds: number; direct?: boolean },
): Promise<'accepted' | 'refused'> {
  const { direct = false, ...check } = options;
  if (!direct) checkProxyVariables(ctx.env);
  // The client takes its proxy from the environment it is given, and from nothing else.
  const client = await ctx.httpClient({
    ...check,
    env: direct ? {} : ctx.env,
    userAgent: `plants/${ctx.version}`,
    ...apiTrace(ctx),
  });
  try {
    return await client.checkToken();
  } finally {
    await client.close();
  }
}
