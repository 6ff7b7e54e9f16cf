import { spawn } from 'node:child_process';
import type { Env, Pager } from './context.js';
import { watchedOutput } from './watched-output.js';

const ignore = () => undefined;

/**
 * Context.startPager, for this process: the pager as a child in this process's group (the
 * terminal's Ctrl-C reaches it, as job control expects), reading a pipe, writing to the terminal.
 * As git does, this process ignores SIGINT until the pager has exited (`ignoreInterrupts`, which
 * returns what listens again): killed under it, it would hand the terminal back to the shell
 * while the pager still reads from it; the SIGINT is the pager's (less: "stop waiting").
 */
export async function startPagerProcess(
  argv: readonly string[],
  env: Env,
  ignoreInterrupts: () => () => void,
): Promise<Pager> {
  const [file = '', ...args] = argv;
  const child = spawn(file, args, { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'inherit', 'inherit'] });
  await new Promise<void>((started, failed) => {
    child.once('spawn', started);
    child.once('error', failed);
  });
  // Only a failure to signal it may come now: it changes nothing of the pager's end.
  child.on('error', ignore);
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  const listenAgain = ignoreInterrupts();
  const stdin = child.stdin as NonNullable<typeof child.stdin>;
  return {
    input: watchedOutput(stdin),
    async close() {
      stdin.end();
      await exited;
      listenAgain();
    },
  };
}
