import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';

/** Where the saved token came from. */
export type TokenSource = 'flag' | 'stdin' | 'prompt' | 'local server';

export interface LoginResult {
  configPath: string;
  /** The service the token was saved for. */
  baseUrl: string;
  source: TokenSource;
  /** Whether the service accepted the token before it was saved (not, with --no-check). */
  checked: boolean;
  /** The server token file a local plants serve made, when the token came from it. */
  serverTokenFile?: string;
  warnings: string[];
}

export function renderHuman(result: LoginResult, io: IOStreams): void {
  const style = io.stderrStyle;
  for (const warning of result.warnings)
    io.stderr.write(`${style.yellow('warning:')} ${printable(warning, Infinity)}\n`);
  const from =
    result.serverTokenFile === undefined
      ? ''
      : ` (the token of the local plants serve, from ${printable(result.serverTokenFile, Infinity)})`;
  const checked = result.checked ? 'the service accepted the token, ' : 'token not checked (--no-check), ';
  io.stderr.write(
    `${style.green('Logged in')} to ${printable(result.baseUrl, Infinity)}${from}: ${checked}saved in ` +
      `${printable(result.configPath, Infinity)} (readable by you only)\n`,
  );
}

function toJson({ configPath, baseUrl, source, checked, warnings }: LoginResult): unknown {
  return { loggedIn: true, baseUrl, source, checked, configPath, warnings };
}

export function renderJson(result: LoginResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
