import { namedEntry } from './flag-values.js';
import { endAfterHangUp } from './hang-up.js';
import { processContext } from './process-context.js';
import { COMMANDS } from './program.js';
import { runCommandLine } from './run-command-line.js';

/** A command line in this process (main.ts): its title, its context, its run; resolves to the exit code. */
export async function runProcess(argv: readonly string[]): Promise<number> {
  process.title = processTitle(argv);
  const code = await runCommandLine(argv, await processContext(argv));
  await endAfterHangUp();
  return code;
}

/**
 * What `ps` and /proc/<pid>/cmdline show for the process's life: `plants` and the command argv
 * names, also past the program's flags (`plants --no-color serve` is `plants serve`, the title
 * plants login looks for), and never an argument, where a --token would be for anyone on the
 * machine to read. Only a declared name: no word of argv is copied unchecked. The declarations
 * only (program.ts), no command's implementation: run-command-line.ts loads them anyway.
 */
export function processTitle(argv: readonly string[]): string {
  const named = namedEntry(COMMANDS, argv);
  return named === undefined ? 'plants' : `plants ${named.name}`;
}
