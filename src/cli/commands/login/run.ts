import { text } from 'node:stream/consumers';
import { PlantsError } from '../../../core/errors.js';
import { configPath, writeConfig } from '../../config/config-file.js';
import { Settings } from '../../config/resolve.js';
import { checkBaseUrl, checkToken } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { LoginOptions, LoginResult } from './types.js';

export { renderHuman, renderJson } from './render.js';

export async function run(options: LoginOptions, ctx: Context): Promise<LoginResult> {
  const baseUrl = options.baseUrl === undefined ? undefined : checkBaseUrl(options.baseUrl);
  const token = checkToken(await readToken(options, ctx));
  await writeConfig(ctx.configDir, { token, ...(baseUrl === undefined ? {} : { 'base-url': baseUrl }) });
  const warnings: string[] = [];
  if ((ctx.env.PLANTS_TOKEN ?? '') !== '') warnings.push('PLANTS_TOKEN is set: it overrides the saved token until you unset it');
  if (baseUrl !== undefined && (ctx.env.PLANTS_BASE_URL ?? '') !== '') warnings.push('PLANTS_BASE_URL is set: it overrides the saved base URL');
  const settings = await Settings.load(ctx);
  return { configPath: configPath(ctx.configDir), baseUrl: settings.require('base-url'), warnings };
}

async function readToken(options: LoginOptions, ctx: Context): Promise<string> {
  if (options.token !== undefined) return options.token;
  if (!options.withToken) {
    throw new PlantsError('usage', 'no token given: pipe it in with --with-token, or pass --token', { hint: 'echo "$TOKEN" | plants login --with-token' });
  }
  if (await ctx.io.stdinIsTerminal()) ctx.io.stderr.write('Paste the token, then press Enter and Ctrl-D:\n');
  // Only the first line counts: a trailing newline from echo or a file is not part of the token.
  return (await text(ctx.io.stdin)).split(/\r?\n/)[0]?.trim() ?? '';
}
