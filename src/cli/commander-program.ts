import { Command, Option } from 'commander';
import type { CommandGroup, CommandSpec, FlagSpec, ParsedInput } from './command-spec.js';
import { SETTINGS, SETTING_KEYS } from './config/settings.js';
import type { IOStreams } from './context.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

/** What a command line's action hands on: the command it names, and what commander parsed. */
export type OnCommand = (spec: CommandSpec, input: ParsedInput) => Promise<void>;

// The settings' variables from their table (they override the config file), then the others.
const ENVIRONMENT_HELP = `Environment (a setting given here overrides config.json):\n${[
  ...SETTING_KEYS.map((key) => [SETTINGS[key].env, SETTINGS[key].describe] as const),
  ['PLANTS_CONFIG_DIR', 'the directory of config.json'],
  ['PLANTS_SERVER_TOKENS', 'the tokens plants serve accepts, comma-separated'],
  ['PLANTS_DATABASE_URL', 'the PostgreSQL database plants serve keeps plants in (postgresql://…)'],
  ['PLANTS_ADMIN_PORT', 'the port of plants serve\'s admin listener (--admin-port)'],
  ['PLANTS_ADMIN_HOST', 'the address of plants serve\'s admin listener (--admin-host)'],
  ['PLANTS_DEBUG', 'set to print the stack trace of an internal error'],
]
  .map(([name, what]) => `  ${name.padEnd(22)}${what}`)
  .join('\n')}
  NO_COLOR, FORCE_COLOR, HTTPS_PROXY, HTTP_PROXY, NO_PROXY`;

/**
 * The commander program of these commands: flags, help and argv parsing only. An action hands the
 * command's declaration and what was parsed to `onCommand`; nothing here loads a command's
 * implementation.
 */
export function buildProgram(commands: readonly (CommandSpec | CommandGroup)[], ctx: { io: IOStreams; version: string }, onCommand: OnCommand): Command {
  const program = new Command('plants')
    .description('Manage plants in the Plant Store: on a service, or in a local JSON file.')
    .version(ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addOption(new Option('--no-color', 'no colour, even on a terminal (also: NO_COLOR=1)'))
    .addHelpText('after', `\n${EXIT_CODES_HELP}\n\n${ENVIRONMENT_HELP}\n`)
    .exitOverride()
    .configureOutput(outputTo(ctx.io));
  // Defined after the settings above, which commander copies into each command it creates:
  // errors thrown, not printed by commander.
  for (const entry of commands) {
    if ('commands' in entry) {
      const group = program.command(entry.name).description(entry.summary);
      if (entry.help !== undefined) group.addHelpText('after', entry.help);
      for (const spec of entry.commands) defineCommand(group, spec, onCommand);
    } else defineCommand(program, entry, onCommand);
  }
  return program;
}

function defineCommand(parent: Command, spec: CommandSpec, onCommand: OnCommand): void {
  const name = spec.name.split(' ').at(-1) as string;
  const args = (spec.arguments ?? []).map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`));
  const command = parent.command([name, ...args].join(' ')).description(spec.summary);
  for (const flag of spec.flags) command.addOption(option(flag));
  if (spec.help !== undefined) command.addHelpText('after', spec.help);
  command.action(async (...values: unknown[]) => {
    // commander passes the arguments, then the options, then the command.
    const parsed = values.at(-1) as Command;
    await onCommand(spec, { args: values.slice(0, -2) as string[], flags: parsed.opts() });
  });
}

function option(flag: FlagSpec): Option {
  const made = new Option(flag.flags, flag.description);
  if (flag.repeatable === true) made.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  return made;
}

function outputTo(io: IOStreams) {
  return {
    writeOut: (text: string) => void io.stdout.write(text),
    writeErr: (text: string) => void io.stderr.write(text),
    // Through the context's streams: a test's captured ones, or the process's.
    // 80 columns where there is no terminal, as commander does.
    getOutHelpWidth: () => io.stdoutTerminal?.columns ?? 80,
    getErrHelpWidth: () => io.stderrTerminal?.columns ?? 80,
    // plants' help has no colour for commander to keep or strip.
    getOutHasColors: () => false,
    getErrHasColors: () => false,
    // Errors are reported by the one error reporter, in the house style (and as JSON with --json).
    outputError: () => undefined,
  };
}
