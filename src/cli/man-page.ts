import type { CommandGroup, CommandSpec } from './command-spec.js';
import { exitCodeRows } from './exit-code-meanings.js';
import {
  descriptionBlocks,
  ENVIRONMENT,
  flagRows,
  HELP_FLAG,
  PROGRAM_EXAMPLES,
  PROGRAM_FLAGS,
  PROGRAM_SUMMARY,
  sentence,
  usageLine,
  type CommandSection,
} from './help.js';
import { COMMAND_SECTIONS } from './program.js';

/**
 * plants(1), the man page, in roff for the man macros: made at build time (build.mjs writes
 * dist/man/plants.1) from the declarations and the words the help is made of (help.ts), so that
 * it holds every command, flag, example and exit code `--help` shows, and cannot fall behind.
 * One page for all the commands, a section each: one file to install (package.json "man"), and
 * `man plants` then `/import` finds anything.
 */
export function manPage(version: string, sections: readonly CommandSection[] = COMMAND_SECTIONS): string {
  const lines = [
    `.TH PLANTS 1 "" "plants ${escape(version)}" "User Commands"`,
    // No hyphenation, ragged right: flags and paths are read, and copied, whole.
    '.nh',
    '.ad l',
    '.SH NAME',
    `plants \\- ${escape(PROGRAM_SUMMARY.charAt(0).toLowerCase() + PROGRAM_SUMMARY.slice(1, -1))}`,
    '.SH SYNOPSIS',
    '\\fBplants\\fR \\fIcommand\\fR [\\fIflags\\fR]',
    '.br',
    '\\fBplants help\\fR [\\fIcommand\\fR]',
    '.SH DESCRIPTION',
    text(PROGRAM_SUMMARY),
    '.PP',
    text('Each command has --help (also plants help <command>), which says what its section of this page says.'),
    '.SH OPTIONS',
    ...terms(PROGRAM_FLAGS),
    ...sections.flatMap((section) => [
      `.SH "${escape(section.title)}"`,
      ...section.entries.flatMap((entry) => ('commands' in entry ? group(entry) : command(entry))),
    ]),
    '.SS "plants help"',
    text(`${sentence(HELP_FLAG[1])} (the same as plants <command> --help).`),
    '.SH "EXIT STATUS"',
    ...terms(exitCodeRows()),
    '.SH ENVIRONMENT',
    text('A setting given here overrides config.json.'),
    ...terms(ENVIRONMENT),
    '.SH EXAMPLES',
    ...examples(PROGRAM_EXAMPLES),
    '.SH "SEE ALSO"',
    text('plants <command> --help; the README of plants, its manual, with every setting, format and error number.'),
  ];
  return `${lines.join('\n')}\n`;
}

function group(entry: CommandGroup): string[] {
  return [
    `.SS "plants ${escape(entry.name)}"`,
    text(sentence(entry.summary)),
    ...description(entry.description),
    ...labelled('Usage', [`\\fB${escape(`plants ${entry.name} <command> [flags]`)}\\fR`]),
    ...labelled('Commands', terms(entry.commands.map((spec) => [spec.name, spec.summary]))),
    ...labelled('Inherited flags', terms([HELP_FLAG])),
    ...labelled('Examples', examples(entry.examples)),
    ...labelled('Exit codes', terms(exitCodeRows(entry.exitCodes))),
    ...entry.commands.flatMap(command),
  ];
}

function command(spec: CommandSpec): string[] {
  const flags = Object.entries(spec.flags);
  return [
    `.SS "plants ${escape(spec.name)}"`,
    text(sentence(spec.summary)),
    ...description(spec.description),
    ...labelled('Usage', [`\\fB${escape(usageLine(spec))}\\fR`]),
    ...labelled('Arguments', terms(spec.arguments.map((arg) => [arg.name, arg.description]))),
    ...labelled('Flags', terms(flagRows(flags.filter(([, flag]) => flag.inherited !== true)))),
    ...labelled('Inherited flags', terms([...flagRows(flags.filter(([, flag]) => flag.inherited)), HELP_FLAG])),
    ...labelled('Examples', examples(spec.examples)),
    ...labelled('Exit codes', terms(exitCodeRows(spec.exitCodes))),
  ];
}

function description(text_: string | undefined): string[] {
  if (text_ === undefined) return [];
  return descriptionBlocks(text_).flatMap((block) => ('rows' in block ? terms(block.rows) : ['.PP', text(block.text)]));
}

/** A paragraph under a bold label, or nothing where it has no lines. */
function labelled(label: string, lines: string[]): string[] {
  return lines.length === 0 ? [] : ['.PP', `\\fB${escape(label)}:\\fR`, ...lines];
}

/** Terms and their texts, each term in bold (a flag's value in italics) and its text indented below it. */
function terms(rows: readonly (readonly [string, string])[]): string[] {
  return rows.flatMap(([term, meaning]) => {
    const value = term.startsWith('-') ? term.indexOf(' <') : -1;
    const bold = (part: string) => `\\fB${escape(part)}\\fR`;
    const shown = value === -1 ? bold(term) : `${bold(term.slice(0, value))} \\fI${escape(term.slice(value + 1))}\\fR`;
    return ['.TP', shown, text(meaning)];
  });
}

/** Command lines as help shows them (`$ plants …`, a `#` line saying what the next does), as they are: not filled. */
function examples(lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  return ['.PP', '.RS 4', '.nf', ...lines.map((line) => text(line.startsWith('#') ? line : `$ ${line}`)), '.fi', '.RE'];
}

/** A line of text: escaped, and never taken for a request (a line that starts with . or '). */
function text(line: string): string {
  const escaped = escape(line);
  return /^[.']/.test(escaped) ? `\\&${escaped}` : escaped;
}

/**
 * Text as roff reads it literally: a backslash as \e, a hyphen as \- (a minus: flags copied from
 * the page work), and every character outside ASCII as its code point, \[u2026], which groff and
 * mandoc read whatever the page's encoding is taken to be.
 */
function escape(text_: string): string {
  return text_
    .replaceAll('\\', '\\e')
    .replaceAll('-', '\\-')
    .replace(/[^\x20-\x7e]/gu, (c) => `\\[u${codePoint(c)}]`);
}

/** A character's code point as groff names it: four hexadecimal digits or more, in capitals. */
function codePoint(c: string): string {
  return (c.codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
}
