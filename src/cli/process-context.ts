import envPaths from 'env-paths';
// Inlined by the bundler: no file to find or read at start-up. Its version only: the bundle holds
// nothing else of the file (build.mjs).
import packageJson from '../../package.json' with { type: 'json' };
import type { Context, ProcessState, TextOutput } from './context.js';
import { printable } from '../core/printable.js';
import { NODE_FS } from '../fs/file-system.js';
// On the start path (build.mjs): loaded with the program, as every plant command but a remote one opens a store.
import { openStore } from '../store/open-store.js';
import { fileIdentity } from './file-identity.js';
import { STOP_SIGNALS, type StopSignal } from './exit-codes.js';
import { noteHangUp } from './hang-up.js';
import { colorLevel, styleFor } from './output.js';
import { watchedOutput } from './watched-output.js';

/**
 * A signal again within this long is the same one delivered twice (see onStopSignal): the two
 * kill(2) calls of timeout(1) follow each other at once, and nobody presses Ctrl-C twice so fast.
 */
const SAME_SIGNAL_MS = 50;

const STOP_SIGNAL_NAMES = Object.keys(STOP_SIGNALS) as StopSignal[];

/** The Context of a real run: this process's streams, environment and directories. */
export async function processContext(argv: readonly string[]): Promise<Context> {
  const env = process.env;
  const noColorFlag = argv.includes('--no-color');
  const paths = envPaths('plants', { suffix: '' });
  const [stdout, stderr] = [processOutput(1), processOutput(2)];
  return {
    io: {
      // Made on first use: creating process.stdin costs at start-up, and most commands never read it.
      get stdin() {
        return process.stdin;
      },
      stdout: stdout.output,
      stderr: stderr.output,
      ...(stdout.terminal === undefined ? {} : { stdoutTerminal: stdout.terminal }),
      ...(stderr.terminal === undefined ? {} : { stderrTerminal: stderr.terminal }),
      stdinIsTerminal: async () => (await import('node:tty')).isatty(0),
      async readSecret(prompt) {
        const { readSecretLine } = await import('./secret-prompt.js');
        return await readSecretLine(process.stdin, process.stderr, prompt, () => process.kill(process.pid, 'SIGINT'));
      },
      async ask(question) {
        const { readAnswer } = await import('./answer-prompt.js');
        return await readAnswer(process.stdin, process.stderr, question, (cancel) => {
          process.once('SIGINT', cancel);
          return () => process.off('SIGINT', cancel);
        });
      },
      stdinFile: () => fileIdentity(() => NODE_FS.fstatSync(0)),
      stdoutStyle: await styleFor(colorLevel(stdout.terminal !== undefined, env, noColorFlag)),
      stderrStyle: await styleFor(colorLevel(stderr.terminal !== undefined, env, noColorFlag)),
    },
    env,
    version: packageJson.version,
    cwd: process.cwd(),
    configDir: (env.PLANTS_CONFIG_DIR ?? '') !== '' ? (env.PLANTS_CONFIG_DIR as string) : paths.config,
    dataDir: paths.data,
    fs: NODE_FS,
    async openStore(location) {
      // Said by every command that writes a store: otherwise a wait of up to 30 s looks like a hang.
      const onLockWait = (path: string) =>
        stderr.output.write(
          `plants: waiting for ${printable(path, Infinity)}: another plants process holds its lock (a killed ` +
            'one, for 12 s at most)\n',
        );
      return await openStore(location, { onLockWait });
    },
    async httpClient(options) {
      const { createPlantsClient } = await import('../client/plants-client.js');
      return await createPlantsClient(options);
    },
    async startPager(argv, pagerEnv) {
      const { startPagerProcess } = await import('./pager-process.js');
      const ignore = () => undefined;
      return await startPagerProcess(argv, pagerEnv, () => {
        process.on('SIGINT', ignore);
        return () => process.off('SIGINT', ignore);
      });
    },
    now: () => Date.now(),
    pid: process.pid,
    ...(process.getuid === undefined ? {} : { uid: process.getuid() }),
    processState,
    openFiles,
    onStopSignal(listener, again) {
      let signals = 0;
      let last = 0;
      const stopListening = () => {
        for (const signal of STOP_SIGNAL_NAMES) process.off(signal, stop);
      };
      // Listening on until the last signal taken, after which one kills the process as if nobody listened.
      const stop = (signal: StopSignal) => {
        if (signal === 'SIGHUP') noteHangUp();
        const now = performance.now();
        // timeout(1), and a kill of a process group, send a signal to the process and again to its
        // group: two deliveries of one request to stop, not a person pressing Ctrl-C twice.
        if (signals > 0 && now - last < SAME_SIGNAL_MS) return;
        // A hang-up is no request to stop harder: the shell passes it on to its jobs, and the
        // kernel sends it again as the shell exits, any time later. Its first is taken, as SIGTERM.
        if (signals > 0 && signal === 'SIGHUP') return;
        signals += 1;
        last = now;
        if (signals === 1) return listener(signal);
        if (signals === 2 && again !== undefined) return again(signal);
        stopListening();
        process.kill(process.pid, signal);
      };
      for (const signal of STOP_SIGNAL_NAMES) process.on(signal, stop);
      return stopListening;
    },
  };
}

/** Context.openFiles, for this process. */
function openFiles(): { limit: number; open: number } | undefined {
  // Node's diagnostic report has the limits of the process (getrlimit), where the system has them.
  const report = process.report?.getReport() as { userLimits?: { open_files?: { soft?: unknown } } } | undefined;
  const limit = report?.userLimits?.open_files?.soft;
  if (typeof limit !== 'number') return undefined;
  for (const directory of ['/proc/self/fd', '/dev/fd']) {
    try {
      // Less the descriptor that reads the directory, which it lists.
      return { limit, open: NODE_FS.readdirSync(directory).length - 1 };
    } catch (error) {
      // No descriptor even to read it: every one is open. Else, not this system's directory.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EMFILE' || code === 'ENFILE') return { limit, open: limit };
    }
  }
  return undefined;
}

/** Context.processState, for this machine's processes. */
export function processState(pid: number, title: string): ProcessState {
  // 0 and below name process groups to kill(): no process of ours.
  if (!Number.isSafeInteger(pid) || pid <= 0) return 'other';
  try {
    process.kill(pid, 0);
  } catch (error) {
    // ESRCH: no such process. EPERM: another user's process has the id now.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? 'gone' : 'other';
  }
  let commandLine: string;
  try {
    commandLine = NODE_FS.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    // No /proc (macOS, Windows): live and ours is all there is to know.
    return 'running';
  }
  return commandLine.replaceAll('\0', ' ').trim() === title ? 'running' : 'other';
}

/**
 * This process's stdout (1) or stderr (2), as commands write to it (watched-output.ts), and Node's
 * own stream where it is a terminal (colours, progress bars, help's width). A reader that falls
 * behind (a server's log pipe) gets what it has not taken yet from memory; one that went away
 * (`plants … | head -1`, a closed log pipe), or a write that failed (a full disk), must not take
 * the process, or a running server, down with it: the failure is kept, for the end of the command
 * line to tell (output-failure.ts), and what is written after it is dropped.
 */
function processOutput(fd: 1 | 2): { output: TextOutput; terminal?: NodeJS.WriteStream } {
  const stream = fd === 1 ? process.stdout : process.stderr;
  const output = watchedOutput(stream);
  return stream.isTTY ? { output, terminal: stream } : { output };
}
