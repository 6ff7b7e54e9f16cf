import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import type { LogoutResult } from './types.js';
import { writeJsonDocument } from '../../json-output.js';

export function renderHuman(result: LogoutResult, io: IOStreams): void {
  const style = io.stderrStyle;
  const [baseUrl, configPath] = [printable(result.baseUrl, Infinity), printable(result.configPath, Infinity)];
  io.stderr.write(
    result.hadToken
      ? `${style.green('Logged out')} of ${baseUrl}: its token removed from ${configPath}\n`
      : `Not logged in to ${baseUrl}: no token for it in ${configPath}\n`,
  );
  if (result.envTokenSet) io.stderr.write(`${style.yellow('warning:')} PLANTS_TOKEN is still set in the environment\n`);
}

function toJson(result: LogoutResult): unknown {
  return { loggedOut: true, ...result };
}

export function renderJson(result: LogoutResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
