import { configPath, readConfig, writeConfig } from '../../config/config-file.js';
import type { Context, IOStreams } from '../../context.js';
import type { CommandModule } from '../types.js';
import type { LogoutOptions } from './command.js';

export interface LogoutResult {
  configPath: string;
  hadToken: boolean;
  envTokenSet: boolean;
}

async function run(_options: LogoutOptions, ctx: Context): Promise<LogoutResult> {
  const hadToken = (await readConfig(ctx.configDir)).token !== undefined;
  if (hadToken) await writeConfig(ctx.configDir, { token: undefined });
  return { configPath: configPath(ctx.configDir), hadToken, envTokenSet: (ctx.env.PLANTS_TOKEN ?? '') !== '' };
}

function renderHuman(result: LogoutResult, io: IOStreams): void {
  const style = io.stderrStyle;
  io.stderr.write(result.hadToken ? `${style.green('Logged out')}: token removed from ${result.configPath}\n` : `Not logged in: no token in ${result.configPath}\n`);
  if (result.envTokenSet) io.stderr.write(`${style.yellow('warning:')} PLANTS_TOKEN is still set in the environment\n`);
}

export const command: CommandModule<LogoutOptions, LogoutResult> = {
  run,
  renderHuman,
  toJson: (result) => ({ loggedOut: true, ...result }),
};
