import type { IOStreams } from '../../context.js';
import type { LoginResult } from './types.js';
import { writeJsonDocument } from '../../json-output.js';

export function renderHuman(result: LoginResult, io: IOStreams): void {
  const style = io.stderrStyle;
  for (const warning of result.warnings) io.stderr.write(`${style.yellow('warning:')} ${warning}\n`);
  const from = result.serverTokenFile === undefined ? '' : ` (the token of the local plants serve, from ${result.serverTokenFile})`;
  io.stderr.write(`${style.green('Logged in')} to ${result.baseUrl}${from}: token saved in ${result.configPath} (readable by you only)\n`);
}

function toJson({ configPath, baseUrl, source, warnings }: LoginResult): unknown {
  return { loggedIn: true, baseUrl, source, configPath, warnings };
}

export function renderJson(result: LoginResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
