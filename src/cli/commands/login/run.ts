import { text } from 'node:stream/consumers';
import { PlantsError } from '../../../core/errors.js';
import { configPath, writeConfig } from '../../config/config-file.js';
import { Settings } from '../../config/resolve.js';
import { checkBaseUrl, checkToken } from '../../config/settings.js';
import type { Context, IOStreams } from '../../context.js';
import type { CommandModule } from '../types.js';
import type { LoginOptions } from './command.js';

export interface LoginResult {
  configPath: string;
  baseUrl: string;
  warnings: string[];
}

async function run(options: LoginOptions, ctx: Context): Promise<LoginResult> {
  if (options.token !== undefined && options.withToken) throw usage('give the token with --token or --with-token, not both');
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
    throw usage('no token given: pipe it in with --with-token, or pass --token', 'echo "$TOKEN" | plants login --with-token');
  }
  if (await ctx.io.stdinIsTerminal()) ctx.io.stderr.write('Paste the token, then press Enter and Ctrl-D:\n');
  // Only the first line counts: a trailing newline from echo or a file is not part of the token.
  return (await text(ctx.io.stdin)).split(/\r?\n/)[0]?.trim() ?? '';
}

function usage(message: string, example?: string): PlantsError {
  return new PlantsError('usage', message, { hint: example ?? 'see plants login --help' });
}

function renderHuman(result: LoginResult, io: IOStreams): void {
  const style = io.stderrStyle;
  for (const warning of result.warnings) io.stderr.write(`${style.yellow('warning:')} ${warning}\n`);
  io.stderr.write(`${style.green('Logged in')} to ${result.baseUrl}: token saved in ${result.configPath} (readable by you only)\n`);
}

export const command: CommandModule<LoginOptions, LoginResult> = {
  run,
  renderHuman,
  toJson: ({ configPath, baseUrl, warnings }) => ({ loggedIn: true, baseUrl, configPath, warnings }),
};
