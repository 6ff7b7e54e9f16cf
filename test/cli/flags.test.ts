import { stat } from 'node:fs/promises';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { CreateOptions } from '../../src/cli/commands/create/run.js';
import type { ListOptions } from '../../src/cli/commands/list/run.js';
import type { ServeOptions } from '../../src/cli/commands/serve/run.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { testContext } from '../helpers/test-context.js';

/** Runs a command line that must be a usage error: exit 2, the message on stderr, and nothing stored. */
async function usageError(argv: string[]): Promise<string> {
  const t = await testContext();
  expect(await t.run(...argv)).toBe(2);
  expect(t.stdout()).toBe('');
  await expect(stat(t.storePath)).rejects.toMatchObject({ code: 'ENOENT' });
  return t.stderr();
}

describe('flags as declared', () => {
  it("types each command's options from its flags (checked by the type checker)", () => {
    // Required: always there; optional: maybe not; choices: only those; repeatable: a list.
    expectTypeOf<CreateOptions['plant']['id']>().toEqualTypeOf<string>();
    expectTypeOf<CreateOptions['plant']['tag']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<NonNullable<ListOptions['format']>>().toEqualTypeOf<'ndjson' | 'csv'>();
    expectTypeOf<ServeOptions['tokens']>().toEqualTypeOf<string[]>();
    expectTypeOf<ServeOptions['port']>().toEqualTypeOf<number>();
  });

  it.each([
    [['create', '--local', '--id', '11', '--id', '12', '--name', 'A'], '--id'],
    [['create', '--local', '--id', '11', '--name', 'A', '--name', 'B'], '--name'],
    [['create', '--local', '--id=11', '--name', 'A', '--tag', 'x', '--tag=y'], '--tag'],
    [['list', '--local', '--limit', '1', '--limit', '2'], '--limit'],
    [['import', '-', '--local', '--format', 'csv', '--format', 'json'], '--format'],
  ])('%j: a flag that takes one value, given twice, is a usage error naming it', async (argv, flag) => {
    expect(await usageError(argv)).toBe(
      `error: ${flag} was given more than once: it takes one value\nhint: see plants ${argv[0]} --help\n`,
    );
  });

  it('never repeats the values of a flag given twice (a token)', async () => {
    const stderr = await usageError([
      'create',
      '--id',
      '1',
      '--name',
      'A',
      '--token',
      'SECRET-1',
      '--token',
      'SECRET-2',
    ]);
    expect(stderr).toContain('error: --token was given more than once');
    expect(stderr).not.toContain('SECRET');
  });

  it.each([
    [['create', '--local', '--name', 'X'], '--id is required'],
    [['create', '--local', '--id', '1'], '--name is required'],
  ])('%j names the flag that is missing (exit 2)', async (argv, message) => {
    expect(await usageError(argv)).toBe(`error: ${message}\nhint: see plants create --help\n`);
    const t = await testContext();
    expect(await t.run(...argv, '--json')).toBe(2);
    expect(JSON.parse(t.stdout())).toMatchObject({ error: 2001, code: 'usage', message });
  });

  it('get and delete take the id as an argument, or with --id, not both', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--id', '2', '--name', 'Oak')).toBe(0);
    expect(await t.run('get', '--local', '2', '--json')).toBe(0);
    expect(t.stdout()).toContain('{\n  "id": 2,\n  "name": "Oak"\n}\n');
    for (const command of ['get', 'delete']) {
      expect(await t.run(command, '--local', '2', '--id', '2')).toBe(2);
      expect(t.stderr()).toContain(
        `error: give the id as an argument or with --id, not both\nhint: see plants ${command} --help\n`,
      );
      expect(await t.run(command, '--local', '0x2')).toBe(2);
      expect(t.stderr()).toContain('error: the id must be a base-10 integer, got "0x2"');
    }
    expect(await t.run('delete', '2', '--local', '--json')).toBe(0);
    expect(t.stdout()).toContain('{\n  "deleted": true,\n  "id": 2\n}\n');
    expect(await t.run('get', '--local', '2')).toBe(1);
    expect(await t.run('delete', '--local', '9223372036854775808')).toBe(2);
    expect(t.stderr()).toContain(
      'error: the id must be between -9223372036854775808 and 9223372036854775807, got 9223372036854775808',
    );
    expect(await t.run('delete', '--local', '2', '--from', 'ids.txt')).toBe(2);
    expect(t.stderr()).toContain('error: give the plant with --id, or a file of them with --from (one of the two)');
  });

  it('a timeout out of range says what is accepted', async () => {
    const t = await testContext();
    for (const argv of [
      ['config', 'set', 'timeout', '0'],
      ['list', '--timeout', '0'],
      ['list', '--timeout', '3601'],
    ]) {
      expect(await t.run(...argv)).toBe(2);
      expect(t.stderr()).toContain(
        `error: timeout must be a number of seconds above 0 and at most 3600 (e.g. 30 or 0.5), got "${argv.at(-1)}"`,
      );
    }
  });

  it('list --format json is list --json', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--id', '2', '--name', 'Oak')).toBe(0);
    const created = t.stdout().length;
    expect(await t.run('list', '--local', '--json')).toBe(0);
    const json = t.stdout().slice(created);
    expect(json).toContain('{"id":2,"name":"Oak"}');
    expect(await t.run('list', '--local', '--format', 'json')).toBe(0);
    expect(t.stdout().slice(created)).toBe(json + json);
    expect(await t.run('list', '--local', '--format', 'json', '--json')).toBe(0);
    expect(await t.run('list', '--local', '--format', 'csv', '--json')).toBe(2);
    expect(t.stdout()).toContain('"message": "give --json or --format, not both"');
    expect([...(await storedPlants(t.storePath)).values()]).toEqual([{ id: 2n, name: 'Oak' }]);
  });
});
