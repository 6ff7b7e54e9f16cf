import type { IOStreams } from '../../context.js';
import type { LoginResult } from './types.js';
import { writeJsonDocument } from '../../json-output.js';

export function renderHuman(result: LoginResult, io: IOStreams): void {
  const style = io.stderrStyle;
  for (const warning of result.warnings) io.stderr.write(`${style.yellow('warning:')} ${warning}\n`);
  io.stderr.write(`${style.green('Logged in')} to ${result.baseUrl}: token saved in ${result.configPath} (readable by you only)\n`);
}

function toJson({ configPath, baseUrl, warnings }: LoginResult): unknown {
  return { loggedIn: true, baseUrl, configPath, warnings };
}

export function renderJson(result: LoginResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
