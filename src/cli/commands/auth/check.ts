import type { Context } from '../../context.js';
import { checkProxyVariables } from '../../target.js';

/** Whether the service at `baseUrl` accepts `token` (PlantsClient.checkToken): one request, nothing stored. */
export async function checkTokenWith(ctx: Context, options: { baseUrl: string; token: string; timeoutSeconds: number }): Promise<'accepted' | 'refused'> {
  checkProxyVariables(ctx.env);
  const client = await ctx.httpClient({ ...options, env: ctx.env, userAgent: `plants/${ctx.version}` });
  try {
    return await client.checkToken();
  } finally {
    await client.close();
  }
}
