import { processContext } from './process-context.js';
import { runCommandLine } from './run-command-line.js';

/** The whole program, for bin/plants.cjs: runs the command line, resolves to the exit code. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  // What `ps` and /proc/<pid>/cmdline show for the process's life: `plants serve`, never the
  // arguments, where a --token would be for anyone on the machine to read.
  process.title = ['plants', ...argv.slice(0, 1).filter((word) => /^[a-z]+$/.test(word))].join(' ');
  return runCommandLine(argv, await processContext(argv));
}
