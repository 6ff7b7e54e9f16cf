import { Command, Option } from 'commander';
import type { ConfigOptions } from './commands/config/command.js';
import { defineConfig } from './commands/config/command.js';
import type { CreateOptions } from './commands/create/command.js';
import { defineCreate } from './commands/create/command.js';
import type { LoginOptions } from './commands/login/command.js';
import { defineLogin } from './commands/login/command.js';
import type { LogoutOptions } from './commands/logout/command.js';
import { defineLogout } from './commands/logout/command.js';
import type { ImportOptions } from './commands/import/command.js';
import { defineImport } from './commands/import/command.js';
import type { ServeOptions } from './commands/serve/command.js';
import { defineServe } from './commands/serve/command.js';
import type { Context, IOStreams } from './context.js';
import { SETTINGS, SETTING_KEYS } from './config/settings.js';
import { EXIT_CODES_HELP } from './exit-codes.js';

/** The options each command's run function receives, after argv parsing. */
export interface CommandOptions {
  create: CreateOptions;
  login: LoginOptions;
  logout: LogoutOptions;
  config: ConfigOptions;
  serve: ServeOptions;
  import: ImportOptions;
}
export type CommandName = keyof CommandOptions;

/** What a command's action hands its parsed options to: main runs it; tests record it. */
export type Dispatch = <K extends CommandName>(name: K, options: CommandOptions[K]) => Promise<void>;

// The settings' variables from their table (they override the config file), then the others.
const ENVIRONMENT_HELP = `Environment (a setting given here overrides config.json):\n${[
  ...SETTING_KEYS.map((key) => [SETTINGS[key].env, SETTINGS[key].describe] as const),
  ['PLANTS_CONFIG_DIR', 'the directory of config.json'],
  ['PLANTS_SERVER_TOKENS', 'the tokens plants serve accepts, comma-separated'],
  ['PLANTS_DEBUG', 'set to print the stack trace of an internal error'],
]
  .map(([name, what]) => `  ${name.padEnd(22)}${what}`)
  .join('\n')}
  NO_COLOR, FORCE_COLOR, HTTPS_PROXY, HTTP_PROXY, NO_PROXY`;

/**
 * The commander program: flags, help and argv parsing only. Actions hand their options to
 * `dispatch`; nothing here loads a command's implementation.
 */
export function buildProgram(ctx: Pick<Context, 'io'> & { version: string }, dispatch: Dispatch): Command {
  const program = new Command('plants')
    .description('Create plants in the Plant Store, on a service or in a local JSON file.')
    .version(ctx.version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .addOption(new Option('--no-color', 'no colour, even on a terminal (also: NO_COLOR=1)'))
    .addHelpText('after', `\n${EXIT_CODES_HELP}\n\n${ENVIRONMENT_HELP}\n`)
    .exitOverride()
    .configureOutput(outputTo(ctx.io));
  // Defined after the settings above, which commander copies into each command it creates:
  // errors thrown, not printed by commander.
  defineCreate(program, dispatch);
  defineLogin(program, dispatch);
  defineLogout(program, dispatch);
  defineConfig(program, dispatch);
  defineImport(program, dispatch);
  defineServe(program, dispatch);
  return program;
}

function outputTo(io: IOStreams) {
  return {
    writeOut: (text: string) => void io.stdout.write(text),
    writeErr: (text: string) => void io.stderr.write(text),
    // commander would ask process.stdout and process.stderr, making them (fdOutput says why not).
    // 80 columns where there is no terminal, as commander does.
    getOutHelpWidth: () => io.stdoutTerminal?.columns ?? 80,
    getErrHelpWidth: () => io.stderrTerminal?.columns ?? 80,
    // plants' help has no colour for commander to keep or strip.
    getOutHasColors: () => false,
    getErrHasColors: () => false,
    // Errors are reported by main's one error reporter, in the house style (and as JSON with --json).
    outputError: () => undefined,
  };
}
