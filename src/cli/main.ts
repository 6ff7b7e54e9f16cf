// Inlined by the bundler: no file to find or read at start-up. Its version only: the bundle holds
// nothing else of the file (build.mjs).
import packageJson from '../../package.json' with { type: 'json' };

/** The words that ask for the version alone; the program's help lists them (help.ts). */
const VERSION_FLAGS: readonly string[] = ['-V', '--version'];

/**
 * The whole program, for bin/plants.cjs: runs the command line, resolves to the exit code.
 * `plants --version` needs the version and nothing else: not commander, not a declaration of any
 * command, not the context. Every other command line loads the program (run-process.ts).
 */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  if (argv.length === 1 && VERSION_FLAGS.includes(argv[0] as string)) {
    // As commander prints it, and as sure to have been written as any command's output.
    const stdout = process.stdout.on('error', () => undefined);
    const line = `${packageJson.version}\n`;
    const failed = await new Promise<Error | null | undefined>((done) => stdout.write(line, done));
    // A closed stdout (`plants --version | true`) is no error of ours.
    if (failed == null || (failed as NodeJS.ErrnoException).code === 'EPIPE') return 0;
    // Loaded only now: what every command says of it, and its exit code.
    const [{ cannotWriteStdout }, { exitCodeFor }] = await Promise.all([
      import('./output-failure.js'),
      import('./exit-codes.js'),
    ]);
    const error = cannotWriteStdout(failed);
    process.stderr.on('error', () => undefined).write(`error: ${error.message}\n`);
    return exitCodeFor(error.code);
  }
  const { runProcess } = await import('./run-process.js');
  return await runProcess(argv);
}
