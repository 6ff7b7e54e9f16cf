import { isPlantsError } from '../../../core/errors.js';
import type { CommandImplementation } from '../../command-implementation.js';
import { Settings } from '../../config/resolve.js';
import { displayValue } from '../../config/settings.js';
import type { Context } from '../../context.js';
import { EXIT } from '../../exit-codes.js';
import { checkProxyVariables } from '../../target.js';
import { checkTokenWith } from './check.js';
import { renderHuman, renderJson, type AuthStatusResult, type ServiceStatus } from './render.js';

/** With --base-url or --token, the one service a command would use; else every saved one. */
export interface AuthStatusOptions {
  baseUrl?: string;
  token?: string;
  timeout?: string;
  json: boolean;
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
  exitCode,
} satisfies CommandImplementation<AuthStatusOptions, AuthStatusResult>;

interface Saved {
  baseUrl: string;
  token: string | undefined;
  source: string | null;
}

/**
 * The command that saves a token for `baseUrl`: `plants login` where the base URL setting names
 * it already (login goes there), else with `--base-url`.
 */
function loginFor(baseUrl: string, settings: Settings): string {
  const setting = settings.get('base-url');
  return setting.value === baseUrl && setting.source !== 'flag' ? 'plants login' : `plants login --base-url ${baseUrl}`;
}

async function run(options: AuthStatusOptions, ctx: Context): Promise<AuthStatusResult> {
  const settings = await Settings.load(ctx, {
    'base-url': options.baseUrl,
    token: options.token,
    timeout: options.timeout,
  });
  const timeoutSeconds = Number(settings.require('timeout'));
  const toCheck = tokensToCheck(options, ctx, settings);
  // One usage error, said once, before anything is sent: not an "unchecked" for each service.
  if (toCheck.some((saved) => saved.token !== undefined)) checkProxyVariables(ctx.env);
  const services = await Promise.all(
    toCheck.map((saved) => statusOf(saved, ctx, timeoutSeconds, loginFor(saved.baseUrl, settings))),
  );
  return { services };
}

/**
 * The services to ask and the token each would be sent: with --base-url or --token, the one a
 * command would use; else every saved one, and PLANTS_TOKEN in place of the saved token of the
 * base URL, as a command would send it.
 */
function tokensToCheck(options: AuthStatusOptions, ctx: Context, settings: Settings): Saved[] {
  const current = settings.require('base-url');
  const token = settings.get('token');
  const sourceOf = (source: string | undefined) => (source === 'env' ? 'env PLANTS_TOKEN' : (source ?? null));
  if (options.baseUrl !== undefined || options.token !== undefined)
    return [{ baseUrl: current, token: token.value, source: sourceOf(token.source) }];
  const saved: Saved[] = [...settings.file.tokens].map(([baseUrl, value]) => ({
    baseUrl,
    token: value,
    source: 'config',
  }));
  const mine = saved.find((entry) => entry.baseUrl === current);
  if (token.source === 'env') {
    if (mine === undefined) saved.unshift({ baseUrl: current, token: token.value, source: sourceOf('env') });
    else Object.assign(mine, { token: token.value, source: sourceOf('env') });
  }
  return saved.length > 0 ? saved : [{ baseUrl: current, token: undefined, source: null }];
}

/** What a service says of its token; a message names the base URL only in `login`, the command it gives. */
async function statusOf(
  { baseUrl, token, source }: Saved,
  ctx: Context,
  timeoutSeconds: number,
  login: string,
): Promise<ServiceStatus> {
  const shown = { baseUrl, token: token === undefined ? null : displayValue('token', token), source };
  if (token === undefined) return { ...shown, status: 'no token', message: `no token saved: run ${login}` };
  try {
    const verdict = await checkTokenWith(ctx, { baseUrl, token, timeoutSeconds });
    if (verdict === 'accepted') return { ...shown, status: 'accepted' };
    return { ...shown, status: 'refused', message: `the service refused the token: run ${login}` };
  } catch (error) {
    if (!isPlantsError(error)) throw error;
    // The message as it is: --json carries it exactly, and the renderer escapes it for people.
    return { ...shown, status: 'unchecked', message: error.message };
  }
}

/** 0 when every token is accepted; 3 when one is refused or missing; else 4 when one could not be checked. */
function exitCode(result: AuthStatusResult): number {
  const statuses = new Set(result.services.map((service) => service.status));
  if (statuses.has('refused') || statuses.has('no token')) return EXIT.auth;
  if (statuses.has('unchecked')) return EXIT.unavailable;
  return EXIT.ok;
}
