import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { IOStreams } from '../../src/cli/context.js';
import { wantsJson } from '../../src/cli/main.js';
import { styleFor } from '../../src/cli/output.js';
import { buildProgram, type CommandName } from '../../src/cli/program.js';

/** Parses argv with the real program, recording what each action would hand to its command. */
async function parse(...argv: string[]): Promise<{ name: CommandName; options: unknown }> {
  const calls: { name: CommandName; options: unknown }[] = [];
  const style = await styleFor(0);
  const io = { stdout: new PassThrough(), stderr: new PassThrough(), stdoutStyle: style, stderrStyle: style } as unknown as IOStreams;
  const program = buildProgram({ io, version: '1.2.3' }, async (name, options) => {
    calls.push({ name, options });
  });
  await program.parseAsync(argv, { from: 'user' });
  expect(calls).toHaveLength(1);
  return calls[0] as { name: CommandName; options: unknown };
}

describe('argv → options', () => {
  it.each([
    [['create', '--id', '1', '--name', 'Fern', '--tag', 'herb'], { id: '1', name: 'Fern', tag: 'herb', local: false, json: false }],
    [['create', '--id', '-9223372036854775808', '--name', 'Min'], { id: '-9223372036854775808', name: 'Min', local: false, json: false }],
    [['create', '--id=9223372036854775807', '--name=Max', '--json'], { id: '9223372036854775807', name: 'Max', local: false, json: true }],
    [['create', '--local', '--store', 's.json', '--id', '1', '--name', 'a'], { id: '1', name: 'a', local: true, store: 's.json', json: false }],
    [['create', '--base-url', 'http://h:1', '--token', 'T', '--timeout', '5'], { baseUrl: 'http://h:1', token: 'T', timeout: '5', local: false, json: false }],
    // An empty value given explicitly is a value: the contract allows an empty name and tag.
    [['create', '--id', '1', '--name', '', '--tag', ''], { id: '1', name: '', tag: '', local: false, json: false }],
    [['create', '--id', '1', '--name=', '--tag='], { id: '1', name: '', tag: '', local: false, json: false }],
    [['login', '--token', 'T', '--base-url', 'http://h:1'], { token: 'T', baseUrl: 'http://h:1', withToken: false, json: false }],
    [['login', '--with-token', '--json'], { withToken: true, json: true }],
    [['logout'], { json: false }],
    [['config', 'list'], { action: 'list', json: false }],
    [['config', 'get', 'base-url', '--json'], { action: 'get', key: 'base-url', json: true }],
    [['config', 'set', 'timeout', '5'], { action: 'set', key: 'timeout', value: '5', json: false }],
    [['config', 'unset', 'token'], { action: 'unset', key: 'token', json: false }],
    [['config', 'path'], { action: 'path', json: false }],
  ])('%j', async (argv, options) => {
    const call = await parse(...argv);
    expect(call.name).toBe(argv[0]);
    expect(call.options).toEqual(options);
  });

  it.each([
    [['create', '--local', '--token', 'T'], '--token cannot be used with --local'],
    [['create', '--local', '--base-url', 'http://h', '--timeout', '3'], '--base-url, --timeout cannot be used with --local'],
    [['create', '--store', 'x.json'], '--store only applies to --local creates: add --local, or drop --store'],
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

  it('finds --json before a -- separator only', () => {
    expect(wantsJson(['create', '--json'])).toBe(true);
    expect(wantsJson(['create', '--', '--json'])).toBe(false);
    expect(wantsJson(['create'])).toBe(false);
  });
});
