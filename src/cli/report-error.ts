import { isPlantsError, PlantsError } from '../core/errors.js';
import { printableMessage } from '../core/printable.js';
import { ioReason, isOutOfDescriptors } from '../fs/io-reason.js';
import type { Env, IOStreams } from './context.js';
import { exitCodeFor } from './exit-codes.js';

/**
 * The one place a failure becomes a message and an exit code. People get `error: …` on stderr
 * (with each field's problem and a hint); with --json, the failure is one JSON document on stdout
 * instead, shaped like the service's Error ({error, message}) plus `code`, `issues` and `hint`.
 * Never a stack trace, unless PLANTS_DEBUG is set.
 */
export function reportError(caught: unknown, io: IOStreams, env: Env, json: boolean): number {
  const error = isPlantsError(caught) ? caught : internal(caught);
  if (json) {
    // No bigint in a failure document: the native JSON.stringify writes it exactly.
    const document = {
      error: error.error,
      code: error.code,
      message: error.message,
      ...(error.issues.length > 0 ? { issues: error.issues } : {}),
      ...(error.hint === undefined ? {} : { hint: error.hint }),
    };
    io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    const style = io.stderrStyle;
    // Messages may quote what came from outside (a file's bytes, a server's words): control
    // characters are shown as escapes, never sent raw; only a message's own line breaks stay
    // (commander's "(Did you mean create?)").
    const safe = (text: string) =>
      text
        .split('\n')
        .map((line) => printableMessage(line, Infinity))
        .join('\n');
    const lines =
      error.issues.length > 0
        ? [
            `${style.red('error:')} invalid plant:`,
            ...error.issues.map((issue) => `  ${style.bold(safe(issue.path))} ${safe(issue.message)}`),
          ]
        : [`${style.red('error:')} ${safe(error.message)}`];
    if (error.hint !== undefined) lines.push(style.dim(`hint: ${safe(error.hint)}`));
    io.stderr.write(`${lines.join('\n')}\n`);
  }
  if (!isPlantsError(caught) && (env.PLANTS_DEBUG ?? '') !== '')
    io.stderr.write(`${(caught as Error)?.stack ?? String(caught)}\n`);
  return exitCodeFor(error.code);
}

function internal(caught: unknown): PlantsError {
  // No descriptor for a file (a module loaded on demand, a config file): a limit of this process or
  // machine, which no code of ours chose; never exit 70.
  if (isOutOfDescriptors(caught))
    return new PlantsError(
      'local_limit',
      `${ioReason(caught)}: raise the limit of open files (ulimit -n) and run it again`,
      { cause: caught },
    );
  const message = caught instanceof Error ? caught.message : String(caught);
  return new PlantsError('internal', `internal error: ${message}`, {
    hint: 'this is a bug in plants; run again with PLANTS_DEBUG=1 for details, and please report it',
    cause: caught,
  });
}
