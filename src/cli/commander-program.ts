import { Command, Option, type Help } from 'commander';
import { PlantsError } from '../core/errors.js';
import { flagName, usageError, type CommandSpec, type FlagSpec, type ParsedInput } from './command-spec.js';
import type { IOStreams } from './context.js';
import { commandHelp, groupHelp, programHelp, PROGRAM_FLAGS, type CommandSection } from './help.js';

/** What a command line's action hands on: the command it names, and what commander parsed. */
export type OnCommand = (spec: CommandSpec, input: ParsedInput) => Promise<void>;

/**
 * The commander program of these commands: argv parsing only, with help made from the
 * declarations (help.ts). An action hands the command's declaration and what was parsed to
 * `onCommand`; nothing here loads a command's implementation.
 */
export function buildProgram(
  sections: readonly CommandSection[],
  ctx: { io: IOStreams; version: string },
  onCommand: OnCommand,
): Command {
  const [version, noColor, help] = PROGRAM_FLAGS;
  const program = new Command('plants')
    .version(ctx.version, version[0], version[1])
    .helpOption(help[0], help[1])
    .helpCommand(false)
    .addOption(new Option(noColor[0], noColor[1]))
    .exitOverride()
    .configureOutput(outputTo(ctx.io));
  // Defined after the settings above, which commander copies into each command it creates:
  // errors thrown, not printed by commander.
  helpFrom(program, (width) => programHelp(sections, width));
  for (const entry of sections.flatMap((section) => section.entries)) {
    if ('commands' in entry) {
      const group = program.command(entry.name).description(entry.summary);
      helpFrom(group, (width) => groupHelp(entry, width));
      for (const spec of entry.commands) defineCommand(group, spec, onCommand);
    } else defineCommand(program, entry, onCommand);
  }
  defineHelpCommand(program);
  return program;
}

/** A command's help, made at the width commander writes it in: the terminal's, or 80. */
function helpFrom(command: Command, help: (width: number) => string): void {
  command.configureHelp({ formatHelp: (_command: Command, helper: Help) => help(helper.helpWidth ?? 80) });
}

/**
 * `plants help [command]`: the help of the program, or of the command named, on stdout; a topic that is none, a usage
 * error.
 */
function defineHelpCommand(program: Command): void {
  const command = program.command('help [command...]').description('show help for a command');
  command.action((words: string[]) => {
    let topic: Command = program;
    for (const word of words) {
      const next = topic.commands.find((sub) => sub.name() === word && sub !== command);
      if (next === undefined)
        throw new PlantsError('usage', `unknown help topic ${JSON.stringify(words.join(' '))}`, {
          hint: 'see plants --help',
        });
      topic = next;
    }
    topic.outputHelp();
  });
}

function defineCommand(parent: Command, spec: CommandSpec, onCommand: OnCommand): void {
  const name = spec.name.split(' ').at(-1) as string;
  const args = spec.arguments.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`));
  const command = parent.command([name, ...args].join(' ')).description(spec.summary);
  for (const [key, flag] of Object.entries(spec.flags)) command.addOption(option(spec.name, key, flag));
  helpFrom(command, (width) => commandHelp(spec, width));
  command.action(async (...values: unknown[]) => {
    // commander passes the arguments, then the options, then the command.
    const parsed = values.at(-1) as Command;
    await onCommand(spec, { args: values.slice(0, -2) as (string | undefined)[], flags: parsed.opts() });
  });
}

function option(command: string, key: string, flag: FlagSpec): Option {
  const name = flagName(key);
  if (flag.kind === 'boolean') return new Option(name, flag.description);
  // `[fields]`: an optional value; flag-values.ts's fieldListsJoined decides which word is one.
  if (flag.kind === 'fields') return new Option(`${name} ${flag.value}`, flag.description);
  const made = new Option(`${name} ${flag.value}`, flag.description);
  if (flag.kind === 'strings')
    return made.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  // Commander keeps the last of a flag given twice: which one the user meant is not known.
  return made.argParser((value: string, previous: string | undefined) => {
    if (previous !== undefined) throw usageError(command, `${name} was given more than once: it takes one value`);
    return value;
  });
}

function outputTo(io: IOStreams) {
  return {
    writeOut: (text: string) => void io.stdout.write(text),
    // Commander writes here only the help of a program or group given without a command (`plants`,
    // `plants config`), its errors going to outputError below: as gh does, that help is asked
    // for, and goes to stdout like any other (exit 0, run-command-line.ts).
    writeErr: (text: string) => void io.stdout.write(text),
    // Through the context's streams: a test's captured ones, or the process's.
    // 80 columns where there is no terminal, as commander does.
    getOutHelpWidth: () => io.stdoutTerminal?.columns ?? 80,
    getErrHelpWidth: () => io.stdoutTerminal?.columns ?? 80,
    // plants' help has no colour for commander to keep or strip.
    getOutHasColors: () => false,
    getErrHasColors: () => false,
    // Errors are reported by the one error reporter, in the house style (and as JSON with --json).
    outputError: () => undefined,
  };
}
