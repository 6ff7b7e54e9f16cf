import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { Chalk } from 'chalk';
import { createPlantsClient } from '../../src/client/plants-client.js';
import type { Context } from '../../src/cli/context.js';
import type { StopSignal } from '../../src/cli/exit-codes.js';
import { processState } from '../../src/cli/process-context.js';
import { runCommandLine } from '../../src/cli/run-command-line.js';
import { styleFor } from '../../src/cli/output.js';
import { watchedOutput } from '../../src/cli/watched-output.js';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { openStore } from '../../src/store/open-store.js';
import { tempDir } from './temp.js';

export interface TestContext {
  ctx: Context;
  stdout(): string;
  stderr(): string;
  /** Runs a command line in this context; resolves to the exit code. */
  run(...argv: string[]): Promise<number>;
  dir: string;
  storePath: string;
  /** Delivers a stop signal (SIGINT, SIGTERM, SIGHUP) to a running `plants serve` or `plants import`. */
  stop(signal?: StopSignal): void;
}

export interface TestContextOptions {
  env?: Record<string, string>;
  stdin?: string;
  /** Output styled as for a colour terminal (the captured streams stay streams). */
  tty?: boolean;
  /** Standard input is a terminal, where a prompt for a token is answered with this. */
  terminalAnswer?: string;
  /** What the command's files are read and written through (default node:fs): a faulty one fails them. */
  fs?: FileSystem;
}

/**
 * A Context over a temp directory (config, data, cwd) with captured output: the real file store,
 * the real HTTP client, no access to the user's home or config.
 */
export async function testContext(options: TestContextOptions = {}): Promise<TestContext> {
  const dir = await tempDir();
  const out = capture();
  const err = capture();
  const tty = options.tty ?? false;
  const stopListeners = new Set<(signal: StopSignal) => void>();
  const againListeners = new Set<(signal: StopSignal) => void>();
  const ctx: Context = {
    io: {
      stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
      stdout: watchedOutput(out.stream),
      stderr: watchedOutput(err.stream),
      stdinIsTerminal: async () => options.terminalAnswer !== undefined,
      async readSecret(prompt) {
        err.stream.write(`${prompt}\n`);
        return options.terminalAnswer ?? '';
      },
      // No test context is a terminal to ask on (prompt.ts): a question asked is left unanswered.
      async ask(question) {
        err.stream.write(`${question}\n`);
        return undefined;
      },
      stdinFile: () => undefined,
      stdoutStyle: tty ? new Chalk({ level: 1 }) : await styleFor(0),
      stderrStyle: tty ? new Chalk({ level: 1 }) : await styleFor(0),
    },
    env: { ...options.env },
    version: '0.0.0-test',
    cwd: dir,
    configDir: join(dir, 'config'),
    dataDir: join(dir, 'data'),
    fs: options.fs ?? NODE_FS,
    openStore: (location) => openStore(location, options.fs === undefined ? {} : { fs: options.fs }),
    httpClient: (clientOptions) => createPlantsClient(clientOptions),
    // No process is started in the fast set: a test context has no terminal to page on anyway.
    startPager: () => Promise.reject(new Error('no pager in a test context')),
    now: () => Date.now(),
    pid: process.pid,
    ...(process.getuid === undefined ? {} : { uid: process.getuid() }),
    processState,
    // This process's own are the test runner's: no serve in a test context is held to them.
    openFiles: () => undefined,
    onStopSignal(listener, again) {
      stopListeners.add(listener);
      if (again !== undefined) againListeners.add(again);
      return () => {
        stopListeners.delete(listener);
        if (again !== undefined) againListeners.delete(again);
      };
    },
  };
  return {
    ctx,
    dir,
    storePath: join(dir, 'data', 'plants.json'),
    stdout: out.text,
    stderr: err.text,
    run: (...argv) => runCommandLine(argv, ctx),
    /** As a signal: the first calls the listeners, the second those given as `again`. */
    stop(signal: StopSignal = 'SIGTERM') {
      const listeners = stopListeners.size > 0 ? [...stopListeners] : [...againListeners];
      if (stopListeners.size > 0) stopListeners.clear();
      else againListeners.clear();
      for (const listener of listeners) listener(signal);
    },
  };
}

function capture() {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
