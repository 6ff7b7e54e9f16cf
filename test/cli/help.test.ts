import { describe, expect, it } from 'vitest';
import { flagName, type CommandGroup, type CommandSpec } from '../../src/cli/command-spec.js';
import { COMMANDS } from '../../src/cli/program.js';
import { PLANT_ROUTES } from '../../src/server/plant-routes.js';
import { testContext } from '../helpers/test-context.js';

/** Every command and group, as typed on a command line: `create`, `config`, `config get`. */
const ENTRIES: (CommandSpec | CommandGroup)[] = COMMANDS.flatMap((entry) =>
  'commands' in entry ? [entry, ...entry.commands] : [entry],
);

async function helpOf(argv: string[], columns?: number): Promise<{ code: number; stdout: string; stderr: string }> {
  const t = await testContext();
  if (columns !== undefined) t.ctx.io.stdoutTerminal = { columns } as NodeJS.WriteStream;
  const code = await t.run(...argv);
  return { code, stdout: t.stdout(), stderr: t.stderr() };
}

/** The headings of a help text, in order: its lines in capitals that start at the margin. */
const headings = (text: string) => text.split('\n').filter((line) => /^[A-Z][A-Z ]+$/.test(line));

/** The lines of a section of a help text, up to the blank line that ends it. */
function section(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  if (start === -1) return [];
  const end = lines.indexOf('', start);
  return lines.slice(start + 1, end === -1 ? undefined : end);
}

describe('help, as gh writes it', () => {
  it.each(ENTRIES.map((entry) => [entry.name, entry] as const))(
    'plants %s --help has every section, made from its declaration, within 80 columns',
    async (name, entry) => {
      const { code, stdout, stderr } = await helpOf([...name.split(' '), '--help']);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const lines = stdout.split('\n');
      // What it is for, as a sentence, first.
      expect(lines.slice(0, lines.indexOf('')).join(' ')).toMatch(/^[A-Z][^\n]*\.$/);
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
      if ('commands' in entry) {
        expect(headings(stdout)).toEqual([
          'USAGE',
          'AVAILABLE COMMANDS',
          'INHERITED FLAGS',
          'EXAMPLES',
          'EXIT CODES',
          'LEARN MORE',
        ]);
        for (const spec of entry.commands)
          expect(section(stdout, 'AVAILABLE COMMANDS').join('\n')).toContain(`${spec.name.split(' ')[1]}:`);
      } else {
        const flags = Object.entries(entry.flags);
        const own = flags.filter(([, flag]) => flag.inherited !== true);
        expect(headings(stdout)).toEqual([
          'USAGE',
          ...(entry.arguments.length > 0 ? ['ARGUMENTS'] : []),
          ...(own.length > 0 ? ['FLAGS'] : []),
          'INHERITED FLAGS',
          'EXAMPLES',
          'EXIT CODES',
        ]);
        expect(section(stdout, 'USAGE')).toEqual([expect.stringMatching(new RegExp(`^  plants ${name} `))]);
        // Each flag under its heading, a required one marked (and in the usage line).
        for (const [key, flag] of flags) {
          const row = (flag.inherited === true ? section(stdout, 'INHERITED FLAGS') : section(stdout, 'FLAGS')).join(
            '\n',
          );
          expect(row).toMatch(new RegExp(`^  ${flagName(key)}\\b`, 'm'));
          if (flag.kind === 'string' && flag.required === true) {
            expect(section(stdout, 'USAGE')[0]).toContain(`${flagName(key)} ${flag.value}`);
            expect(row).toMatch(new RegExp(`^  ${flagName(key)} [^]*?\\(required\\)`, 'm'));
          }
        }
        expect(section(stdout, 'INHERITED FLAGS')).toContainEqual(
          expect.stringMatching(/^ {2}-h, --help +show help for a command$/),
        );
      }
      expect(section(stdout, 'EXAMPLES').length).toBeGreaterThan(0);
      for (const example of section(stdout, 'EXAMPLES'))
        expect(example).toMatch(/^ {2}(\$ plants |\$ \S+=\S+ plants |\$ source <\(plants |# )/);
      // Success, a usage error and an internal error, at least, each with what it means.
      const codes = section(stdout, 'EXIT CODES').filter((line) => /^ {2}\d/.test(line));
      expect(codes.map((line) => line.trim().split(/\s+/)[0])).toEqual(expect.arrayContaining(['0', '2', '70']));
      // Defaults in one form: `(default: …)`.
      expect(stdout).not.toMatch(/\(default [^:]|default: "/);
      // `plants help <command>` is the same help.
      expect(await helpOf(['help', ...name.split(' ')])).toEqual({ code: 0, stdout, stderr: '' });
    },
  );

  it(
    'plants --help groups the commands by what they are for, with the flags, examples, every exit code and the ' +
      'environment',
    async () => {
      const { code, stdout } = await helpOf(['--help']);
      expect(code).toBe(0);
      expect(headings(stdout)).toEqual([
        'USAGE',
        'PLANT COMMANDS',
        'SERVICE COMMANDS',
        'ACCOUNT COMMANDS',
        'ADDITIONAL COMMANDS',
        'FLAGS',
        'EXAMPLES',
        'EXIT CODES',
        'ENVIRONMENT',
        'LEARN MORE',
      ]);
      for (const entry of COMMANDS) expect(stdout).toMatch(new RegExp(`^  ${entry.name}: `, 'm'));
      expect(section(stdout, 'ADDITIONAL COMMANDS')).toContain('  help:        show help for a command');
      expect(
        section(stdout, 'EXIT CODES')
          .map((line) => line.slice(0, 16).trim())
          .filter((shown) => shown !== ''),
      ).toEqual(['0', '1', '2', '3', '4', '70', '129, 130, 143']);
      for (const line of stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
      expect(await helpOf(['help'])).toEqual({ code: 0, stdout, stderr: '' });
      // The help flag before a command asks for the program's help: every command, not that one alone.
      for (const argv of [
        ['--help', 'get'],
        ['-h', 'config', 'get'],
        ['--no-color', '--help', 'create'],
      ])
        expect(await helpOf(argv)).toEqual({ code: 0, stdout, stderr: '' });
    },
  );

  it('wraps to the width of the terminal, and to 80 columns in a pipe', async () => {
    const wide = await helpOf(['import', '--help'], 120);
    const narrow = await helpOf(['import', '--help'], 60);
    const piped = await helpOf(['import', '--help']);
    // Examples are commands to copy: never broken (they fit in 80 columns).
    const widest = (text: string) =>
      Math.max(
        ...text
          .split('\n')
          .filter((line) => !section(text, 'EXAMPLES').includes(line))
          .map((line) => line.length),
      );
    expect(widest(wide.stdout)).toBeGreaterThan(80);
    expect(widest(wide.stdout)).toBeLessThanOrEqual(120);
    expect(widest(narrow.stdout)).toBeLessThanOrEqual(60);
    expect(widest(piped.stdout)).toBeLessThanOrEqual(80);
    expect(widest(piped.stdout)).toBeGreaterThan(60);
  });

  it('plants, or a group, alone prints its help on stdout with exit 0, as gh does', async () => {
    // Issue 40: it was the same help on stderr, with exit 2.
    for (const argv of [[], ['config'], ['auth'], ['--no-color']]) {
      const asked = await helpOf([...argv, '--help']);
      expect(await helpOf(argv)).toEqual({ code: 0, stdout: asked.stdout, stderr: '' });
    }
  });

  it('plants --help and serve --help name every method the service answers', async () => {
    // Issue 40: "POST /plants, and the GET and DELETE extensions" left out PUT and PATCH.
    const methods = new Set(PLANT_ROUTES.routes.map((route) => route.method));
    for (const argv of [['--help'], ['serve', '--help']]) {
      const { stdout } = await helpOf(argv);
      const serve = stdout.replace(/\n +/g, ' ');
      for (const method of methods) expect(serve).toMatch(new RegExp(`\\b${method}\\b`));
    }
  });

  it('plants help <a topic that is none> is an error line, exit 2', async () => {
    expect(await helpOf(['help', 'nope'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: unknown help topic "nope"\nhint: see plants --help\n',
    });
    expect(await helpOf(['help', 'config', 'nope'])).toMatchObject({
      code: 2,
      stderr: 'error: unknown help topic "config nope"\nhint: see plants --help\n',
    });
  });
});
