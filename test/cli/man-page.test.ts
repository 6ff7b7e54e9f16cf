import { describe, expect, it } from 'vitest';
import type { CommandImplementation } from '../../src/cli/command-implementation.js';
import { declareCommand, type CommandGroup, type CommandSpec } from '../../src/cli/command-spec.js';
import { commandHelp, groupHelp, programHelp } from '../../src/cli/help.js';
import { manPage } from '../../src/cli/man-page.js';
import { COMMAND_SECTIONS, COMMANDS } from '../../src/cli/program.js';

/** Every command and group, as typed on a command line: `create`, `config`, `config get`. */
const ENTRIES: (CommandSpec | CommandGroup)[] = COMMANDS.flatMap((entry) =>
  'commands' in entry ? [entry, ...entry.commands] : [entry],
);

/** Help as wide as it needs: each row of a table on one line. */
const WIDE = 100_000;

/** The text of roff as a reader sees it, blanks collapsed: requests dropped, escapes undone. */
function plain(roff: string): string {
  return roff
    .split('\n')
    .filter((line) => !line.startsWith('.'))
    .join(' ')
    .replace(/\\f[BIR]/g, '')
    .replace(/\\-/g, '-')
    .replace(/\\\[u([0-9A-F]+)\]/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/\\&/g, '')
    .replace(/\\e/g, '\\')
    .replace(/\s+/g, ' ');
}

/** The sections of a page by their headings (`.SH`, `.SS`, unquoted, as read), each as plain text. */
function sectionsOf(page: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of page.split(/^(?=\.S[HS] )/m).slice(1)) {
    const [heading = '', ...body] = part.split('\n');
    sections.set(plain(heading.slice(4).replace(/^"|"$/g, '')).trim(), plain(body.join('\n')));
  }
  return sections;
}

/** The lines of a help text but its headings and blank lines, blanks collapsed: what it tells. */
function told(help: string, except: readonly string[] = []): string[] {
  const lines: string[] = [];
  let heading = '';
  for (const line of help.split('\n')) {
    if (/^[A-Z][A-Z ]+$/.test(line)) heading = line;
    else if (line.trim() !== '' && !except.includes(heading)) lines.push(line.replace(/\s+/g, ' ').trim());
  }
  return lines;
}

const PAGE = manPage('1.2.3');
const SECTIONS = sectionsOf(PAGE);

describe('the man page, plants(1)', () => {
  const entries = ENTRIES.map((entry) => [entry.name, entry] as const);
  it.each(entries)('holds all that plants %s --help says, in its section', (name, entry) => {
    const section = SECTIONS.get(`plants ${name}`);
    expect(section, `a section "plants ${name}"`).toBeDefined();
    // A group's help lists its commands by their last word: the page names them whole, with the same summary.
    const help = 'commands' in entry ? groupHelp(entry, WIDE) : commandHelp(entry, WIDE);
    const lines = told(help, 'commands' in entry ? ['AVAILABLE COMMANDS', 'LEARN MORE'] : []);
    for (const line of lines) expect(section, line).toContain(line.replace(/^\$ /, '$ '));
    const commands = 'commands' in entry ? entry.commands : [];
    for (const spec of commands) expect(section).toContain(`${spec.name} ${spec.summary}`);
  });

  it("holds plants --help's flags, exit codes, environment and examples, under the headings of a man page", () => {
    const help = programHelp(COMMAND_SECTIONS, WIDE);
    const pageText = [...SECTIONS.values()].join(' ');
    const commandLists = COMMAND_SECTIONS.map((section) => section.title);
    for (const line of told(help, ['', ...commandLists, 'USAGE', 'LEARN MORE'])) expect(pageText, line).toContain(line);
    expect([...SECTIONS.keys()].filter((heading) => !heading.startsWith('plants '))).toEqual([
      ...['NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS'],
      ...['PLANT COMMANDS', 'SERVICE COMMANDS', 'ACCOUNT COMMANDS', 'ADDITIONAL COMMANDS'],
      ...['EXIT STATUS', 'ENVIRONMENT', 'EXAMPLES', 'SEE ALSO'],
    ]);
    const name = 'plants - manage plants in the Plant Store: on a service, or in a local JSON file';
    expect(SECTIONS.get('NAME')?.trim()).toBe(name);
    expect(PAGE.split('\n')[0]).toBe('.TH PLANTS 1 "" "plants 1.2.3" "User Commands"');
  });

  it('is roff as man reads it: ASCII, no blank line, no trailing blank, no text taken for a request', () => {
    const requests = new Set(['.TH', '.SH', '.SS', '.PP', '.TP', '.RS', '.RE', '.nf', '.fi', '.br', '.nh', '.ad']);
    expect(PAGE.endsWith('\n')).toBe(true);
    for (const line of PAGE.slice(0, -1).split('\n')) {
      expect(line).toMatch(/^[\x20-\x7e]+$/);
      expect(line).not.toMatch(/\s$/);
      if (/^[.']/.test(line)) expect(requests, line).toContain(line.split(' ')[0]);
    }
    // Every hyphen a minus (flags copied from the page work); every backslash an escape of ours.
    expect(PAGE).not.toMatch(/(^|[^\\])-/m);
    expect(PAGE).toContain('\\[u2026]');
  });

  it('is made from the declarations: a flag declared is on the page, escaped, with no line to add by hand', () => {
    const brandNew = declareCommand({
      name: 'prune',
      summary: 'prune plants',
      description: '.starts like a request, and has a \\ backslash',
      flags: {
        olderThan: { kind: 'string', value: '<days>', description: "'quoted' first: a request too", default: '7' },
      },
      examples: ['plants prune --older-than 30'],
      exitCodes: { ok: 'pruned' },
      options: () => ({}),
      load: () => Promise.reject<{ implementation: CommandImplementation<object, unknown> }>(new Error('never run')),
    });
    const page = manPage('0.0.0', [{ title: 'NEW COMMANDS', entries: [brandNew] }]);
    const section = sectionsOf(page).get('plants prune');
    expect(section).toContain("--older-than <days> 'quoted' first: a request too (default: 7)");
    expect(section).toContain('.starts like a request, and has a \\ backslash');
    expect(section).toContain('$ plants prune --older-than 30');
    expect(page).toContain('\\&.starts like a request, and has a \\e backslash');
    expect(page).toContain("\\&'quoted' first");
  });
});
