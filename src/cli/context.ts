import type { Readable } from 'node:stream';
import type { PlantsClient, PlantsClientOptions } from '../client/client-options.js';
import type { PlantStore } from '../core/store.js';
import type { FileSystem } from '../fs/file-system.js';
import type { StoreLocation } from '../store/open-store.js';
import type { StopSignal } from './exit-codes.js';
import type { Style } from './output.js';

/**
 * A stream a writer of unbounded output waits on (see writeInTurn in paced-output.ts): its events
 * say when it wants more, and when it takes nothing more.
 */
export interface PacedOutput {
  write(text: string): boolean;
  /** The stream holds more than it wants: a writer of much should wait for 'drain'. */
  readonly writableNeedDrain: boolean;
  /** Its reader went away (`| head -1`), or it failed: what is written now is dropped. */
  readonly destroyed: boolean;
  readonly errored: Error | null;
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
}

/**
 * stdout or stderr as a command writes its text to it (watched-output.ts): once a write failed it
 * takes nothing more, and it keeps why, for the end of the command line to tell (output-failure.ts).
 */
export interface TextOutput extends PacedOutput {
  /**
   * The first write that failed (a full disk, EIO, a file too large), unless it failed only because
   * its reader went away (EPIPE: `plants list | head -1`), which is no failure.
   */
  readonly failure: Error | undefined;
  /** Resolves once everything written so far has been written, or has failed. */
  flushed(): Promise<void>;
}

export interface IOStreams {
  stdin: Readable;
  stdout: TextOutput;
  stderr: TextOutput;
  /** Node's own stream of stdout and of stderr, where that is a terminal (help's width, progress bars). */
  stdoutTerminal?: NodeJS.WriteStream;
  stderrTerminal?: NodeJS.WriteStream;
  /** Asked only by a command about to prompt: finding out may load node:tty (isTerminal). */
  stdinIsTerminal(): Promise<boolean>;
  /**
   * Asks `prompt` on stderr and reads a line from the terminal without showing it (a token). Only
   * where stdinIsTerminal(); Ctrl-C interrupts the process as it would anywhere else.
   */
  readSecret(prompt: string): Promise<string>;
  /**
   * Asks `question` on stderr and reads the line typed at the terminal, shown and edited by the
   * terminal as any line is; resolves to it, or to undefined at the end of input (Ctrl-D) or on
   * Ctrl-C, which then stops nothing else. Only where canPrompt (prompt.ts).
   */
  ask(question: string): Promise<string | undefined>;
  /**
   * The file standard input reads, as `dev:ino` (a file, a pipe, a terminal), when it has one: what an output file must
   * not be.
   */
  stdinFile(): string | undefined;
  /** Decorations for each stream, resolved once from its TTY state, NO_COLOR, FORCE_COLOR and --no-color. */
  stdoutStyle: Style;
  stderrStyle: Style;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** A pager running (Context.startPager): what is written to it, and its end. */
export interface Pager {
  /** Its standard input: once the person quits it (q in less), it takes nothing more, as a pipe whose reader left. */
  input: TextOutput;
  /** Ends its input, and resolves once it has exited: once the person has read to the end, or quit. */
  close(): Promise<void>;
}

/** What Context.processState tells of a process id. */
export type ProcessState = 'running' | 'gone' | 'other';

/**
 * Everything a command may touch besides its options. Commands never reach for `process`; tests
 * build a Context over temp dirs and captured streams. The HTTP stack is loaded only when a
 * command asks for it; the file store is on the start path, loaded with the program (build.mjs).
 */
export interface Context {
  io: IOStreams;
  env: Env;
  /** This tool's version, for --version and the User-Agent. */
  version: string;
  cwd: string;
  /** Where config.json lives: $PLANTS_CONFIG_DIR, else the user's config directory. */
  configDir: string;
  /** Where the default store lives: the user's data directory. */
  dataDir: string;
  /**
   * What every file of a command is read and written through: the store, the config, serve's
   * records and token, bulk inputs and outputs. node:fs in a run; in tests, one that fails.
   */
  fs: FileSystem;
  /** The store at `location`, opened: read and checked now (one not ours is `store_corrupt`). */
  openStore(location: StoreLocation): Promise<PlantStore>;
  httpClient(options: PlantsClientOptions): Promise<PlantsClient>;
  /**
   * Starts the pager `argv` (a program and its arguments, no shell) with the environment `env`:
   * it reads from a pipe, and shows what it reads on this process's terminal, which it owns until
   * it exits (a Ctrl-C meanwhile is the pager's: this process ignores SIGINT until then). Rejects
   * where it cannot be started (no such program, not executable).
   */
  startPager(argv: readonly string[], env: Env): Promise<Pager>;
  now(): number;
  /** This process's id: what a running plants serve records of itself. */
  pid: number;
  /** This process's user id, where the system has users (not on Windows): the owner of the files plants trusts. */
  uid?: number;
  /**
   * Process `pid` on this machine: `running` if it runs, is this user's (may be signalled), and
   * shows as `title` where the system tells (/proc on Linux); `gone` if no process has that id;
   * `other` if one has that is not it (another user's, or another program: a process that died
   * may have its id taken by another).
   */
  processState(pid: number, title: string): ProcessState;
  /**
   * This process's limit of open files (the soft one, which the kernel enforces: ulimit -n) and how
   * many it has open now, where the system tells both (Linux, macOS); undefined elsewhere.
   */
  openFiles(): { limit: number; open: number } | undefined;
  /**
   * Calls `listener` with the name of the first SIGINT, SIGTERM or SIGHUP from now on, which then
   * no longer kills the process: a second one does (plants serve), or, given `again`, is handed to
   * it and a third one does (plants import). A signal that comes again within a few milliseconds is
   * the same one delivered twice, and counts once; a SIGHUP after the first signal does not count
   * (a terminal that closed tells it more than once). Returns a function that stops listening.
   */
  onStopSignal(listener: (signal: StopSignal) => void, again?: (signal: StopSignal) => void): () => void;
}
