import { PlantsError } from '../../../core/errors.js';
import { configPath, writeConfig } from '../../config/config-file.js';
import { Settings } from '../../config/resolve.js';
import { isRecordedServe } from '../../config/serve-record.js';
import { readServerToken, serverTokenPath } from '../../config/server-token.js';
import { checkBaseUrl, checkToken } from '../../config/settings.js';
import type { CommandImplementation } from '../../command-implementation.js';
import type { Context } from '../../context.js';
import { readFirstLine } from '../../first-line.js';
import { promptsDisabled, PROMPT_DISABLED } from '../../prompt.js';
import { checkTokenWith } from '../auth/check.js';
import { renderHuman, renderJson, type LoginResult, type TokenSource } from './render.js';

export interface LoginOptions {
  /** The service; else the base URL setting. */
  baseUrl?: string;
  token?: string;
  /** Read the token from standard input (--with-token). */
  withToken: boolean;
  /** Ask the service whether it takes the token before saving it (no --no-check). */
  check: boolean;
  json: boolean;
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
} satisfies CommandImplementation<LoginOptions, LoginResult>;

async function run(options: LoginOptions, ctx: Context): Promise<LoginResult> {
  // Checked first, and named as a login error, before the config file is read.
  if (options.baseUrl !== undefined) checkBaseUrl(options.baseUrl);
  const settings = await Settings.load(ctx, { 'base-url': options.baseUrl });
  const baseUrl = settings.require('base-url');
  const { token, source } = await findToken(options, ctx, baseUrl, settings);
  // As gh does: a token is saved once the service takes it. The local serve's token was checked as it was found.
  const checked =
    source === 'local server' || (options.check && (await tokenAccepted(ctx, baseUrl, checkToken(token), settings)));
  await writeConfig(ctx, {
    values: options.baseUrl === undefined ? {} : { 'base-url': baseUrl },
    tokens: new Map([[baseUrl, checkToken(token)]]),
  });
  const warnings: string[] = [];
  if ((ctx.env.PLANTS_TOKEN ?? '') !== '')
    warnings.push('PLANTS_TOKEN is set: it is sent instead of any saved token until you unset it');
  const envBaseUrl = ctx.env.PLANTS_BASE_URL ?? '';
  if (options.baseUrl !== undefined && envBaseUrl !== '' && settings.get('base-url').source === 'flag') {
    warnings.push(`PLANTS_BASE_URL is set: commands talk to ${envBaseUrl} until you unset it`);
  }
  return {
    configPath: configPath(ctx.configDir),
    baseUrl,
    source,
    checked,
    ...(source === 'local server' ? { serverTokenFile: serverTokenPath(ctx.dataDir) } : {}),
    warnings,
  };
}

async function findToken(
  options: LoginOptions,
  ctx: Context,
  baseUrl: string,
  settings: Settings,
): Promise<{ token: string; source: TokenSource }> {
  if (options.token !== undefined) return { token: options.token, source: 'flag' };
  // PLANTS_PROMPT_DISABLED: nobody is asked, as where standard input is no terminal.
  const disabled = promptsDisabled(ctx.env);
  const terminal = !disabled && (await ctx.io.stdinIsTerminal());
  if (options.withToken) {
    if (terminal) return { token: await ask(ctx, baseUrl), source: 'prompt' };
    return { token: await readFirstLine(ctx.io.stdin, 'standard input'), source: 'stdin' };
  }
  const local = await localServerToken(ctx, baseUrl, settings);
  if (local !== undefined) return { token: local, source: 'local server' };
  // Said, so that a user who expected their plants serve to be found knows it was not.
  const noServe = `no plants serve of yours runs at ${baseUrl} to take its token from`;
  if (terminal) {
    ctx.io.stderr.write(`${noServe}: give the token\n`);
    return { token: await ask(ctx, baseUrl), source: 'prompt' };
  }
  const noAsking = disabled ? `${PROMPT_DISABLED} is set` : 'standard input is not a terminal to ask on';
  throw new PlantsError('usage', `no token given, and ${noAsking} (${noServe})`, {
    hint: `plants login --base-url ${baseUrl} --with-token < token-file, or start plants serve and log in again`,
  });
}

/**
 * True once the service accepts the token; a refusal (auth_refused, exit 3) or no answer (exit 4)
 * is thrown: nothing is saved, and the base URL stays as it was.
 */
async function tokenAccepted(ctx: Context, baseUrl: string, token: string, settings: Settings): Promise<true> {
  let verdict: 'accepted' | 'refused';
  try {
    verdict = await checkTokenWith(ctx, { baseUrl, token, timeoutSeconds: Number(settings.require('timeout')) });
  } catch (error) {
    if (!(error instanceof PlantsError) || error.code === 'usage') throw error;
    const unchecked = `save the token unchecked: plants login --base-url ${baseUrl} --no-check`;
    // An answer outside the contract has the better hint (a redirect: the service moved); no answer, this one.
    const hint =
      error.code === 'bad_response' && error.hint !== undefined
        ? `${error.hint}; or ${unchecked}`
        : `start the service (or check the base URL), or ${unchecked}`;
    throw new PlantsError(
      error.code,
      `could not check the token with ${baseUrl}, so it was not saved: ${error.message}`,
      { cause: error, hint },
    );
  }
  if (verdict === 'refused')
    throw new PlantsError('auth_refused', `${baseUrl} refused the token: it was not saved`, {
      hint: 'check the token, and that it is for this service',
    });
  return true;
}

async function ask(ctx: Context, baseUrl: string): Promise<string> {
  const token = (await ctx.io.readSecret(`Token for ${baseUrl} (input hidden): `)).trim();
  if (token === '') throw new PlantsError('usage', 'no token entered');
  return token;
}

/**
 * The token a plants serve on this machine made for itself, for the base URL that serve recorded
 * while it runs (serve-record.ts), if it accepts it. Never for another host, nor for another port
 * or spelling of this machine: whatever listens there (another user's process; `localhost` may be
 * ::1 where the serve is on 127.0.0.1) would be handed the token. A serve records loopback URLs
 * only (loopbackUrls), where it alone listens: no other base URL is ever recorded. Checked with no
 * proxy: the token is not for a proxy to see either.
 */
async function localServerToken(ctx: Context, baseUrl: string, settings: Settings): Promise<string | undefined> {
  if (!isRecordedServe(ctx, baseUrl)) return undefined;
  const token = readServerToken(ctx);
  if (token === undefined) return undefined;
  const verdict = await checkTokenWith(ctx, {
    baseUrl,
    token,
    timeoutSeconds: Number(settings.require('timeout')),
    direct: true,
  }).catch(() => undefined);
  return verdict === 'accepted' ? token : undefined;
}
