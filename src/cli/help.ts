import { flagName, type CommandGroup, type CommandSpec, type FlagSpec } from './command-spec.js';
import { SETTINGS, SETTING_KEYS } from './config/settings.js';
import { exitCodeRows } from './exit-code-meanings.js';

/**
 * Help as gh writes it: what a command is for, then USAGE, FLAGS (required ones marked), INHERITED
 * FLAGS, EXAMPLES and EXIT CODES, each a section under a heading, made from the declarations and
 * wrapped to the width it is written in (80 where that is no terminal).
 */

/** Commands under a heading of what they are for: `PLANT COMMANDS`. */
export interface CommandSection {
  title: string;
  entries: readonly (CommandSpec | CommandGroup)[];
}

export const HELP_FLAG = ['-h, --help', 'show help for a command'] as const;

/** The program's own flags, before a command. */
export const PROGRAM_FLAGS = [
  ['-V, --version', 'print the version'],
  ['--no-color', 'no colour, even on a terminal (also: NO_COLOR=1)'],
  HELP_FLAG,
] as const;

const LEARN_MORE = 'Use `plants <command> --help` (or `plants help <command>`) for more about a command.';

/**
 * The environment variables plants reads: the settings' from their table (they override the config file), then the
 * others.
 */
export const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ...SETTING_KEYS.map((key) => [SETTINGS[key].env, SETTINGS[key].describe] as const),
  ['PLANTS_CONFIG_DIR', 'the directory of config.json'],
  ['PLANTS_SERVER_TOKENS', 'the tokens plants serve accepts, comma-separated'],
  ['PLANTS_DATABASE_URL', 'the PostgreSQL database plants serve keeps plants in (postgresql://…)'],
  ['PLANTS_STORE_WAIT', 'the most plants serve waits on its store, in seconds (default 10)'],
  ['PLANTS_ADMIN_PORT', "the port of plants serve's admin listener (--admin-port)"],
  ['PLANTS_ADMIN_HOST', "the address of plants serve's admin listener (--admin-host)"],
  ['PLANTS_PAGER, PAGER', 'the pager of plants list on a terminal (default: less, with LESS=FRX); empty or cat: none'],
  ['PLANTS_PROMPT_DISABLED', 'set: plants asks no question, even on a terminal (delete --from then needs --yes)'],
  ['PLANTS_DEBUG', 'set to print the stack trace of an internal error; api: also each request and answer'],
  ['NO_COLOR, FORCE_COLOR', 'no colour; colour even where there is no terminal'],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'the proxy to reach the service through, and the hosts reached directly'],
];

export const PROGRAM_EXAMPLES = [
  'plants login --base-url https://plants.example.com',
  'plants create --id 1 --name Fern --tag herb',
  'plants list --local --format ndjson > plants.ndjson',
  'plants help import',
];

/** What plants is for: the first line of its help. */
export const PROGRAM_SUMMARY = 'Manage plants in the Plant Store: on a service, or in a local JSON file.';

export function programHelp(sections: readonly CommandSection[], width: number): string {
  return render([
    ['', paragraphs(PROGRAM_SUMMARY, width)],
    ['USAGE', ['  plants <command> [flags]']],
    // `help` is commander's command, not a declared one: listed last, with the additional ones.
    ...sections.map((section, i): Section => [
      section.title,
      table(
        [
          ...section.entries.map((entry) => [`${entry.name}:`, entry.summary] as const),
          ...(i === sections.length - 1 ? [['help:', HELP_FLAG[1]] as const] : []),
        ],
        width,
      ),
    ]),
    ['FLAGS', table(PROGRAM_FLAGS, width)],
    ['EXAMPLES', exampleLines(PROGRAM_EXAMPLES)],
    ['EXIT CODES', table(exitCodeRows(), width)],
    [
      'ENVIRONMENT',
      [...wrap('A setting given here overrides config.json.', width, '  '), ...table(ENVIRONMENT, width)],
    ],
    ['LEARN MORE', wrap(LEARN_MORE, width, '  ')],
  ]);
}

export function groupHelp(group: CommandGroup, width: number): string {
  return render([
    ['', paragraphs(sentence(group.summary), width)],
    ['', group.description === undefined ? [] : paragraphs(group.description, width)],
    ['USAGE', [`  plants ${group.name} <command> [flags]`]],
    [
      'AVAILABLE COMMANDS',
      table(
        group.commands.map((spec) => [`${spec.name.split(' ').at(-1) as string}:`, spec.summary]),
        width,
      ),
    ],
    ['INHERITED FLAGS', table([HELP_FLAG], width)],
    ['EXAMPLES', exampleLines(group.examples)],
    ['EXIT CODES', table(exitCodeRows(group.exitCodes), width)],
    ['LEARN MORE', wrap(`Use \`plants ${group.name} <command> --help\` for more about a command.`, width, '  ')],
  ]);
}

export function commandHelp(spec: CommandSpec, width: number): string {
  const flags = Object.entries(spec.flags);
  return render([
    ['', paragraphs(sentence(spec.summary), width)],
    ['', spec.description === undefined ? [] : paragraphs(spec.description, width)],
    ['USAGE', wrap(usageLine(spec), width, '  ', '    ')],
    [
      'ARGUMENTS',
      table(
        spec.arguments.map((arg) => [arg.name, arg.description]),
        width,
      ),
    ],
    ['FLAGS', table(flagRows(flags.filter(([, flag]) => flag.inherited !== true)), width)],
    ['INHERITED FLAGS', table([...flagRows(flags.filter(([, flag]) => flag.inherited === true)), HELP_FLAG], width)],
    ['EXAMPLES', exampleLines(spec.examples)],
    ['EXIT CODES', table(exitCodeRows(spec.exitCodes), width)],
  ]);
}

/** `plants create --id <id> --name <name> [flags]`: the required flags, the arguments, then the rest. */
export function usageLine(spec: CommandSpec): string {
  const required = Object.entries(spec.flags).flatMap(([key, flag]) =>
    flag.kind === 'string' && flag.required === true ? [`${flagName(key)} ${flag.value}`] : [],
  );
  const args = spec.arguments.map((arg) => (arg.required ? `<${arg.name}>` : `[<${arg.name}>]`));
  return ['plants', spec.name, ...required, ...args, '[flags]'].join(' ');
}

/** A flag as help shows it (`--id <id>`), and what it says of it. */
export function flagRows(flags: readonly (readonly [string, FlagSpec])[]): [string, string][] {
  return flags.map(([key, flag]) => [
    flag.kind === 'boolean' ? flagName(key) : `${flagName(key)} ${flag.value}`,
    flagText(flag),
  ]);
}

/** A flag's description, and in one form: its default, whether it repeats, whether it is required. */
function flagText(flag: FlagSpec): string {
  const notes: string[] = [];
  if (flag.kind === 'strings') notes.push('repeatable');
  if (flag.kind === 'string' || flag.kind === 'strings') {
    const from = flag.kind === 'string' && flag.default !== undefined ? flag.default : flag.defaultFrom;
    if (from !== undefined) notes.push(`default: ${from}`);
  }
  if (flag.kind === 'string' && flag.required === true) notes.push('required');
  return notes.length === 0 ? flag.description : `${flag.description} (${notes.join('; ')})`;
}

/** The summary as the first line of help: a sentence. */
export function sentence(summary: string): string {
  return `${summary.charAt(0).toUpperCase()}${summary.slice(1)}.`;
}

function exampleLines(examples: readonly string[]): string[] {
  return examples.map((example) => (example.startsWith('#') ? `  ${example}` : `  $ ${example}`));
}

/** A heading and its lines; a section with no lines is left out, one with no heading is text before the first. */
type Section = readonly [string, readonly string[]];

function render(sections: readonly Section[]): string {
  const shown = sections.filter(([, lines]) => lines.length > 0);
  return `${shown.map(([title, lines]) => (title === '' ? lines : [title, ...lines]).join('\n')).join('\n\n')}\n`;
}

/** A paragraph of a description: text, or a table of terms and their texts. */
export type DescriptionBlock = { text: string } | { rows: [string, string][] };

/**
 * A description's paragraphs (blank lines between): text, but for one whose lines all start with
 * spaces, a table of a term and its text, two or more spaces apart.
 */
export function descriptionBlocks(text: string): DescriptionBlock[] {
  return text.split(/\n\n+/).map((paragraph) => {
    const lines = paragraph.split('\n');
    if (!lines.every((line) => line.startsWith(' '))) return { text: lines.join(' ') };
    return {
      rows: lines.map((line): [string, string] => {
        const [, term = '', rest = ''] = /^\s*(\S+(?: \S+)*?)(?:\s{2,}(.*))?$/.exec(line) ?? [];
        return [term, rest];
      }),
    };
  });
}

/** A description wrapped to `width`: its text paragraphs wrapped, its tables in columns. */
function paragraphs(text: string, width: number): string[] {
  return descriptionBlocks(text).flatMap((block, i) => {
    const body = 'rows' in block ? table(block.rows, width) : wrap(block.text, width, '');
    return i === 0 ? body : ['', ...body];
  });
}

/**
 * Rows of a term and its text: the texts in one column, wrapped under themselves; a term too wide for the column has
 * its text below it.
 */
function table(rows: readonly (readonly [string, string])[], width: number): string[] {
  const column = Math.min(Math.max(0, ...rows.map(([term]) => term.length)), Math.floor(width / 3));
  const indent = ' '.repeat(2 + column + 2);
  return rows.flatMap(([term, text]) => {
    if (text === '') return [`  ${term}`];
    if (term.length > column) return [`  ${term}`, ...wrap(text, width, indent)];
    return wrap(text, width, `  ${term.padEnd(column)}  `, indent);
  });
}

/**
 * Words wrapped to `width`: the first line after `first`, the others after `rest`. A word longer than a line is left
 * whole.
 */
export function wrap(text: string, width: number, first: string, rest: string = first): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest + word;
    } else line = empty ? line + word : `${line} ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.map((each) => each.trimEnd());
}
