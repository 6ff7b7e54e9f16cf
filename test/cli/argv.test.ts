import { stat } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/commander-program.js';
import type { IOStreams } from '../../src/cli/context.js';
import { styleFor } from '../../src/cli/output.js';
import { COMMAND_SECTIONS } from '../../src/cli/program.js';
import { processTitle } from '../../src/cli/run-process.js';
import { wantsJson } from '../../src/cli/run-command-line.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { testContext } from '../helpers/test-context.js';

/** Parses argv with the real program, recording the options each command would be run with. */
async function parse(...argv: string[]): Promise<{ name: string; options: unknown }> {
  const calls: { name: string; options: unknown }[] = [];
  const style = await styleFor(0);
  const io = {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdoutStyle: style,
    stderrStyle: style,
  } as unknown as IOStreams;
  const program = buildProgram(COMMAND_SECTIONS, { io, version: '1.2.3' }, async (spec, input) => {
    calls.push({ name: spec.name, options: spec.parse(input).options });
  });
  await program.parseAsync(argv, { from: 'user' });
  expect(calls).toHaveLength(1);
  return calls[0] as { name: string; options: unknown };
}

describe('argv → options', () => {
  it.each([
    [
      ['create', '--id', '1', '--name', 'Fern', '--tag', 'herb'],
      { plant: { id: '1', name: 'Fern', tag: 'herb' }, target: { local: false }, json: false },
    ],
    [
      ['create', '--id', '-9223372036854775808', '--name', 'Min'],
      { plant: { id: '-9223372036854775808', name: 'Min' }, target: { local: false }, json: false },
    ],
    [
      ['create', '--id=9223372036854775807', '--name=Max', '--json'],
      { plant: { id: '9223372036854775807', name: 'Max' }, target: { local: false }, json: true },
    ],
    [
      ['create', '--local', '--store', 's.json', '--id', '1', '--name', 'a'],
      { plant: { id: '1', name: 'a' }, target: { local: true, store: 's.json' }, json: false },
    ],
    [
      ['create', '--id', '1', '--name', 'a', '--base-url', 'http://h:1', '--token', 'T', '--timeout', '5'],
      {
        plant: { id: '1', name: 'a' },
        target: { local: false, baseUrl: 'http://h:1', token: 'T', timeout: '5' },
        json: false,
      },
    ],
    // An empty value given explicitly is a value: the contract allows an empty name and tag.
    [
      ['create', '--id', '1', '--name', '', '--tag', ''],
      { plant: { id: '1', name: '', tag: '' }, target: { local: false }, json: false },
    ],
    [
      ['create', '--id', '1', '--name=', '--tag='],
      { plant: { id: '1', name: '', tag: '' }, target: { local: false }, json: false },
    ],
    // A value that looks like a flag, joined to its flag.
    [
      ['create', '--id', '1', '--name=--tag', '--tag=--json'],
      { plant: { id: '1', name: '--tag', tag: '--json' }, target: { local: false }, json: false },
    ],
    [
      ['login', '--token', 'T', '--base-url', 'http://h:1'],
      { token: 'T', baseUrl: 'http://h:1', withToken: false, check: true, json: false },
    ],
    [['login', '--with-token', '--json'], { withToken: true, check: true, json: true }],
    [['logout'], { json: false }],
    [['config', 'list'], { action: 'list', json: false }],
    [['config', 'get', 'base-url', '--json'], { action: 'get', key: 'base-url', json: true }],
    [['config', 'set', 'timeout', '5'], { action: 'set', key: 'timeout', value: '5', json: false }],
    [['config', 'unset', 'token'], { action: 'unset', key: 'token', json: false }],
    [['config', 'path'], { action: 'path', json: false }],
    // A repeatable flag collects its values; the defaults are the declared ones.
    [
      ['serve', '--token', 'a', '--token', 'b'],
      {
        host: '127.0.0.1',
        port: 8080,
        pool: 10,
        tokens: ['a', 'b'],
        quiet: false,
        logFormat: 'text',
        shutdownDelaySeconds: 0,
      },
    ],
    [['get', '7'], { id: '7', target: { local: false }, json: false }],
    [['list', '--format', 'json'], { target: { local: false }, json: true, pager: true, count: false }],
    [['list', '--local', '--no-pager'], { target: { local: true }, json: false, pager: false, count: false }],
  ])('%j', async (argv, options) => {
    const call = await parse(...argv);
    expect(call.name.split(' ')[0]).toBe(argv[0]);
    expect(call.options).toEqual(options);
  });

  it.each([
    [['create', '--id', '1', '--name', 'a', '--local', '--token', 'T'], '--token cannot be used with --local'],
    [
      ['create', '--id', '1', '--name', 'a', '--local', '--base-url', 'http://h', '--timeout', '3'],
      '--base-url, --timeout cannot be used with --local',
    ],
    [
      ['create', '--id', '1', '--name', 'a', '--store', 'x.json'],
      '--store only applies with --local: add --local, or drop --store',
    ],
    [['import', 'p.csv', '--store', 'x.json'], '--store only applies with --local: add --local, or drop --store'],
    [['import', 'p.csv', '--local', '--token', 'T'], '--token cannot be used with --local'],
    [['config', 'get', 'password'], 'unknown setting "password": expected one of base-url, token, store, timeout'],
  ])('%j is a usage error', async (argv, message) => {
    await expect(parse(...argv)).rejects.toMatchObject({ code: 'usage', message });
  });

  it.each([
    [['create', '--bogus'], 'commander.unknownOption'],
    [['create', '--id'], 'commander.optionMissingArgument'],
    [['create', '--id', '1', '--name'], 'commander.optionMissingArgument'],
    [['create', '--id', '1', '--name', 'Fern', '--tag'], 'commander.optionMissingArgument'],
    [['config', 'set', 'timeout'], 'commander.missingArgument'],
    [['plant'], 'commander.unknownCommand'],
  ])('%j is refused by the parser', async (argv, code) => {
    await expect(parse(...argv)).rejects.toMatchObject({ code });
  });

  it.each([
    [['create', '--local', '--id', '21', '--name', '--tag', 'x'], '--name', '--tag'],
    [['create', '--local', '--id', '21', '--name', '--json'], '--name', '--json'],
    [['create', '--local', '--id', '21', '--name', '--tag=x'], '--name', '--tag'],
    [['create', '--local', '--id', '21', '--tag', '--local', '--name', 'x'], '--tag', '--local'],
    [['create', '--local', '--id', '--name', 'x'], '--id', '--name'],
    [['--no-color', 'create', '--local', '--id', '21', '--name', '--help'], '--name', '--help'],
    [['create', '--id', '21', '--name', 'x', '--token', '--base-url=http://h:1'], '--token', '--base-url'],
    [['import', '-', '--local', '--format', '--json'], '--format', '--json'],
    [['list', '--local', '--after', '--limit', '5'], '--after', '--limit'],
    [['delete', '--local', '--from', '--dry-run'], '--from', '--dry-run'],
  ])(
    '%j: a flag followed by a flag of the command has no value (exit 2), before anything runs',
    async (argv, flag, next) => {
      const t = await testContext();
      expect(await t.run(...argv)).toBe(2);
      const message = `${flag} has no value: the ${next} after it is a flag of this command`;
      const hint = `for a value that looks like a flag, join the two: ${flag}=${next}`;
      if (argv.includes('--json'))
        expect(JSON.parse(t.stdout())).toEqual({ error: 2001, code: 'usage', message, hint });
      else expect(t.stderr()).toBe(`error: ${message}\nhint: ${hint}\n`);
      await expect(stat(t.storePath)).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );

  it("never repeats the value of a flag given as the one that has no value's value (--token=…)", async () => {
    const t = await testContext();
    expect(await t.run('create', '--id', '1', '--name', '--token=SECRET-1234')).toBe(2);
    expect(t.stderr()).toContain('error: --name has no value: the --token after it is a flag of this command');
    expect(t.stderr()).not.toContain('SECRET');
  });

  it('still takes an empty value, a value joined to its flag, and a word that is no flag of the command', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--id', '1', '--name', '', '--tag=', '--json')).toBe(0);
    expect(await t.run('create', '--local', '--id', '2', '--name=--tag', '--tag=--json')).toBe(0);
    expect(await t.run('create', '--local', '--id', '3', '--name', '--no-such-flag')).toBe(0);
    expect([...(await storedPlants(t.storePath)).values()]).toEqual([
      { id: 1n, name: '', tag: '' },
      { id: 2n, name: '--tag', tag: '--json' },
      { id: 3n, name: '--no-such-flag' },
    ]);
  });

  it('finds --json before a -- separator only', () => {
    expect(wantsJson(['create', '--json'])).toBe(true);
    expect(wantsJson(['create', '--', '--json'])).toBe(false);
    expect(wantsJson(['create'])).toBe(false);
  });
});

describe('the process title', () => {
  it.each([
    [['serve', '--port', '0'], 'plants serve'],
    // Past the program's flags: plants login knows a running serve by this title.
    [['--no-color', 'serve', '--port', '0'], 'plants serve'],
    [['--no-color', 'config', 'get', 'token'], 'plants config'],
    // Never a value, even one spelled like a command: only the command's name.
    [['create', '--name', 'serve', '--token', 'SECRET-1234'], 'plants create'],
    [['--token', 'SECRET-1234', 'serve'], 'plants'],
    [['SECRET-1234'], 'plants'],
    [['--version'], 'plants'],
    [[], 'plants'],
  ])('%j: %s', (argv, title) => {
    expect(processTitle(argv)).toBe(title);
  });
});
