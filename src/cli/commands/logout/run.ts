import { configPath, writeConfig } from '../../config/config-file.js';
import { Settings } from '../../config/resolve.js';
import type { Context } from '../../context.js';
import type { LogoutOptions, LogoutResult } from './types.js';

export { renderHuman, renderJson } from './render.js';

export async function run(options: LogoutOptions, ctx: Context): Promise<LogoutResult> {
  const settings = await Settings.load(ctx, { 'base-url': options.baseUrl });
  const baseUrl = settings.require('base-url');
  const hadToken = settings.file.tokens.has(baseUrl);
  if (hadToken) await writeConfig(ctx, { tokens: new Map([[baseUrl, undefined]]) });
  return { configPath: configPath(ctx.configDir), baseUrl, hadToken, envTokenSet: (ctx.env.PLANTS_TOKEN ?? '') !== '' };
}
