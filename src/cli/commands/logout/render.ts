import type { IOStreams } from '../../context.js';
import type { LogoutResult } from './types.js';
import { writeJsonDocument } from '../../json-output.js';

export function renderHuman(result: LogoutResult, io: IOStreams): void {
  const style = io.stderrStyle;
  io.stderr.write(
    result.hadToken
      ? `${style.green('Logged out')} of ${result.baseUrl}: its token removed from ${result.configPath}\n`
      : `Not logged in to ${result.baseUrl}: no token for it in ${result.configPath}\n`,
  );
  if (result.envTokenSet) io.stderr.write(`${style.yellow('warning:')} PLANTS_TOKEN is still set in the environment\n`);
}

function toJson(result: LogoutResult): unknown {
  return { loggedOut: true, ...result };
}

export function renderJson(result: LogoutResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
