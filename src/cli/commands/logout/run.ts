import { printable } from '../../../core/printable.js';
import type { CommandImplementation } from '../../command-implementation.js';
import { configPath, writeConfig } from '../../config/config-file.js';
import { Settings } from '../../config/resolve.js';
import type { Context, IOStreams } from '../../context.js';
import { EXIT } from '../../exit-codes.js';
import { writeJsonDocument } from '../../json-output.js';

export interface LogoutOptions {
  /** The service; else the base URL setting. */
  baseUrl?: string;
  json: boolean;
}

export interface LogoutResult {
  configPath: string;
  /** The service whose token was removed (or had none). */
  baseUrl: string;
  hadToken: boolean;
  envTokenSet: boolean;
  /** Where the base URL that stays comes from: `config` (saved by login), `env`, `flag`, `default`. */
  baseUrlFrom: string | undefined;
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
  exitCode,
} satisfies CommandImplementation<LogoutOptions, LogoutResult>;

async function run(options: LogoutOptions, ctx: Context): Promise<LogoutResult> {
  const settings = await Settings.load(ctx, { 'base-url': options.baseUrl });
  const baseUrl = settings.require('base-url');
  const hadToken = settings.file.tokens.has(baseUrl);
  if (hadToken) await writeConfig(ctx, { tokens: new Map([[baseUrl, undefined]]) });
  return {
    configPath: configPath(ctx.configDir),
    baseUrl,
    hadToken,
    envTokenSet: (ctx.env.PLANTS_TOKEN ?? '') !== '',
    baseUrlFrom: settings.get('base-url').source,
  };
}

function renderHuman(result: LogoutResult, io: IOStreams): void {
  const style = io.stderrStyle;
  const [baseUrl, configPathShown] = [printable(result.baseUrl, Infinity), printable(result.configPath, Infinity)];
  io.stderr.write(
    result.hadToken
      ? `${style.green('Logged out')} of ${baseUrl}: its token removed from ${configPathShown}\n`
      : `Not logged in to ${baseUrl}: no token for it in ${configPathShown}\n`,
  );
  // The base URL login saved stays: the next command goes there, and says it has no token for it.
  if (result.baseUrlFrom === 'config')
    io.stderr.write(
      `The base URL stays ${baseUrl} (plants config unset base-url forgets it; plants config set base-url URL ` +
        'changes it)\n',
    );
  if (result.envTokenSet) io.stderr.write(`${style.yellow('warning:')} PLANTS_TOKEN is still set in the environment\n`);
}

function renderJson(result: LogoutResult, io: IOStreams): void {
  writeJsonDocument(io, { loggedOut: result.hadToken, ...result });
}

/**
 * 1 where there was no token to remove, as gh does, and as plants delete does for a plant that is
 * not there: a script that logs out of a service it never logged in to has the wrong service
 * (a base URL from elsewhere), which is worth saying. `plants logout || true` does not mind.
 */
function exitCode(result: LogoutResult): number {
  return result.hadToken ? EXIT.ok : EXIT.refused;
}
