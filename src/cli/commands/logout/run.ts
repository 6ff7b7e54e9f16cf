import { configPath, readConfig, writeConfig } from '../../config/config-file.js';
import type { OutputOptions } from '../../command-spec.js';
import type { Context } from '../../context.js';
import type { LogoutResult } from './types.js';

export { renderHuman, renderJson } from './render.js';

export async function run(_options: OutputOptions, ctx: Context): Promise<LogoutResult> {
  const hadToken = (await readConfig(ctx.configDir)).token !== undefined;
  if (hadToken) await writeConfig(ctx.configDir, { token: undefined });
  return { configPath: configPath(ctx.configDir), hadToken, envTokenSet: (ctx.env.PLANTS_TOKEN ?? '') !== '' };
}
