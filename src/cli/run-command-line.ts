import { CommanderError } from 'commander';
import { PlantsError } from '../core/errors.js';
import type { CommandGroup, CommandSpec } from './command-spec.js';
import { buildProgram, type OnCommand } from './commander-program.js';
import type { Context } from './context.js';
import { EXIT } from './exit-codes.js';
import { FailedMidDocument } from './failed-mid-document.js';
import { exitCodeOnceWritten } from './output-failure.js';
import { commandOf, fieldListsJoined, namedEntry, refuseContradictions, refuseFlagsAsValues } from './flag-values.js';
import { COMMAND_SECTIONS, COMMANDS } from './program.js';
import type { CommandSection } from './help.js';
import { reportError } from './report-error.js';

/**
 * Runs one command line; resolves to the exit code once its output is written (or has failed:
 * output-failure.ts). Never throws, never exits the process.
 */
export async function runCommandLine(argv: readonly string[], ctx: Context): Promise<number> {
  return await exitCodeOnceWritten(await runCommand(argv, ctx), ctx.io, ctx.env);
}

async function runCommand(argv: readonly string[], ctx: Context): Promise<number> {
  let exitCode: number = EXIT.ok;
  // Whether a failure is reported as JSON: as the command's options say once parsed
  // (`--name=--json` names a plant "--json"); until then as argv says, so that usage errors honour
  // it too (`--name --json` is one: a --name with no value).
  let json: boolean | undefined;
  const onCommand: OnCommand = async (spec, input) => {
    const command = spec.parse(input);
    json = command.json;
    exitCode = await command.run(ctx);
  };
  try {
    // Before commander, which takes whatever follows a flag that takes a value as its value, flags
    // included, and would then refuse the next word as an argument too many, or run.
    const named = helpFirst(argv) ? undefined : commandOf(COMMANDS, argv);
    if (named !== undefined) {
      refuseFlagsAsValues(named.flags, argv);
      refuseContradictions(named.flags, argv);
    }
    const words = named === undefined ? [...argv] : fieldListsJoined(named, argv);
    await buildProgram(sectionsFor(named), ctx, onCommand).parseAsync(words, { from: 'user' });
    return exitCode;
  } catch (error) {
    // Commander "fails" with exit code 0 after printing help or the version, and with
    // commander.help after printing the help of a program or group given without a command: as
    // gh does, that is help asked for, exit 0.
    if (error instanceof CommanderError && (error.exitCode === 0 || error.code === 'commander.help')) return EXIT.ok;
    if (error instanceof FailedMidDocument) return reportError(error.cause, ctx.io, ctx.env, false);
    return reportError(asUsageError(error, argv), ctx.io, ctx.env, json ?? wantsJson(argv));
  }
}

/**
 * What commander is given to parse: the command argv names alone (in its group, for `config get`),
 * so that a command line builds one command's flags, not every command's; all of them where it
 * names none (the program's help, `help`, an unknown command and its suggestions).
 */
function sectionsFor(named: CommandSpec | undefined): readonly CommandSection[] {
  if (named === undefined) return COMMAND_SECTIONS;
  const entries = COMMANDS.flatMap((entry): (CommandSpec | CommandGroup)[] => {
    if (entry === named) return [entry];
    return 'commands' in entry && entry.commands.includes(named) ? [{ ...entry, commands: [named] }] : [];
  });
  return [{ title: '', entries }];
}

/** Whether the help flag comes before any command (`plants --help get`): the program's help, every command in it. */
function helpFirst(argv: readonly string[]): boolean {
  const command = argv.findIndex((word) => !word.startsWith('-'));
  const help = argv.findIndex((word) => word === '--help' || word === '-h');
  return help !== -1 && (command === -1 || help < command);
}

/** Commander's own errors (unknown option, missing argument, …) as our usage error. */
function asUsageError(error: unknown, argv: readonly string[]): unknown {
  if (!(error instanceof CommanderError)) return error;
  // The help of the command (or group) argv names, where it names one.
  const command =
    error.code === 'commander.unknownCommand'
      ? undefined
      : (commandOf(COMMANDS, argv) ?? namedEntry(COMMANDS, argv))?.name;
  // `--tokn=SECRET` is an unknown option whose value may be a secret: never repeat a value.
  const message = error.message.replace(/^error: /, '').replace(/(--?[\w-]+=)[^'\s]*/g, '$1…');
  return new PlantsError('usage', message, { hint: `see plants ${command ? `${command} ` : ''}--help` });
}

/** Whether the user asked for JSON (`--json`, `--json=id`); read from argv so that even a usage error can honour it. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((word) => word === '--json' || word.startsWith('--json='));
}
