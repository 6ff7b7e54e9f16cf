import { printable, printableMessage } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';

/** What one service said of its token: accepted, refused, no token to check, or not asked (unreachable, …). */
export interface ServiceStatus {
  baseUrl: string;
  /** The token masked, or null where there is none. */
  token: string | null;
  /** Where the token comes from: `config`, `env PLANTS_TOKEN`, `flag`. */
  source: string | null;
  status: 'accepted' | 'refused' | 'no token' | 'unchecked';
  /** Why it is not accepted, for people. */
  message?: string;
}

export interface AuthStatusResult {
  services: ServiceStatus[];
}

/** One line per service on stdout, as data; what to do about a token that fails, on stderr. */
export function renderHuman(result: AuthStatusResult, io: IOStreams): void {
  const style = io.stdoutStyle;
  const shown = (baseUrl: string) => printable(baseUrl, Infinity);
  const width = Math.max(...result.services.map((service) => shown(service.baseUrl).length));
  for (const { baseUrl, token, source, status, message } of result.services) {
    const shownStatus =
      status === 'accepted' ? style.green(status) : status === 'unchecked' ? style.yellow(status) : style.red(status);
    io.stdout.write(
      `${shown(baseUrl).padEnd(width)}  ${token ?? '-'}${source === null ? '' : style.dim(` (${source})`)}  ` +
        `${shownStatus}\n`,
    );
    // The service named once: before the message, unless the message names it (`could not connect
    // to http://…/plants`, `run plants login --base-url http://…`).
    const about = message === undefined || message.includes(baseUrl) ? '' : `${shown(baseUrl)}: `;
    if (message !== undefined) io.stderr.write(`${about}${printableMessage(message, Infinity)}\n`);
  }
}

export function renderJson(result: AuthStatusResult, io: IOStreams): void {
  writeJsonDocument(io, result);
}
