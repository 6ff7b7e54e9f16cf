import { PlantsError } from '../core/errors.js';
import type { Context, IOStreams } from './context.js';

/**
 * How a command is declared: what it is called, its arguments and flags, how they become its
 * options, and how to load what runs it. program.ts turns the list of these into the commander
 * program (and completion.ts into shell completions); nothing of a command's implementation is
 * loaded until it runs.
 */
export interface CommandSpec<Options = unknown> {
  /** `create`, or `config get` for a command of a group. */
  name: string;
  summary: string;
  arguments?: readonly ArgumentSpec[];
  flags: readonly FlagSpec[];
  /** Shown after the flags in `--help`: formats, exit codes, examples. */
  help?: string;
  /** The options of a command line: throws a usage error for flags that do not go together. */
  options(input: ParsedInput): Options;
  load(): Promise<CommandImplementation<Options>>;
}

/** Commands under one name: `plants config get`, `plants auth status`. */
export interface CommandGroup {
  name: string;
  summary: string;
  help?: string;
  commands: readonly CommandSpec[];
}

export interface ArgumentSpec {
  name: string;
  description: string;
  required: boolean;
  /** What completes it in a shell: a file, or one of these words. */
  completes?: 'file' | readonly string[];
}

export interface FlagSpec {
  /** As commander takes them: `--id <id>`, `-q, --quiet`, `--no-color`. */
  flags: string;
  description: string;
  /** A flag given more than once collects its values. */
  repeatable?: boolean;
  /** What completes its value in a shell: a file, or one of these words. */
  completes?: 'file' | readonly string[];
}

/** What commander parsed: positional arguments, and each flag's value by its long name in camelCase. */
export interface ParsedInput {
  args: readonly string[];
  flags: Readonly<Record<string, string | boolean | string[] | undefined>>;
}

/**
 * What a command's implementation is: a run that returns data, and the two ways to show it. A
 * result too large to hold (a list of a million plants) is data that streams: its renderers write
 * it as it comes.
 */
export interface CommandImplementation<Options, Result = unknown> {
  run(options: Options, ctx: Context): Promise<Result>;
  /** Human output: data on stdout, messages on stderr. */
  renderHuman(result: Result, io: IOStreams): void | Promise<void>;
  /** The one JSON document printed on stdout with --json: as a value, or written as it comes. */
  renderJson(result: Result, io: IOStreams): void | Promise<void>;
  /** The exit code of a command that ran to the end but did not fully succeed (default 0). */
  exitCode?(result: Result): number;
}

/** Options every command has: one JSON document on stdout instead of text. */
export interface OutputOptions {
  json: boolean;
}

export const JSON_FLAG: FlagSpec = { flags: '--json', description: 'print the outcome, or the failure, as one JSON document on stdout' };

/** A usage error, with a hint to the help of the command. */
export function usageError(command: string, message: string): PlantsError {
  return new PlantsError('usage', message, { hint: `see plants ${command} --help` });
}

/** A flag's value as text, if it was given. */
export function text(input: ParsedInput, key: string): string | undefined {
  const value = input.flags[key];
  return typeof value === 'string' ? value : undefined;
}

export function bool(input: ParsedInput, key: string): boolean {
  return input.flags[key] === true;
}
