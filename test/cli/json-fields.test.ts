import { describe, expect, it } from 'vitest';
import { testContext, type TestContext } from '../helpers/test-context.js';

const MAX = '9223372036854775807';
const MIN_PLUS_ONE = '-9223372036854775807';

/** A local store of three plants: the int64 ends (±(2^63-1)) and one with no tag. */
async function threePlants(): Promise<TestContext> {
  const t = await testContext();
  expect(await t.run('create', '--local', '--id', MAX, '--name', 'Max', '--tag', 'herb')).toBe(0);
  expect(await t.run('create', '--local', '--id', MIN_PLUS_ONE, '--name', 'Min', '--tag', 'tree')).toBe(0);
  expect(await t.run('create', '--local', '--id', '3', '--name', 'Ivy')).toBe(0);
  return t;
}

/** What a command line prints on stdout (the context's output grows: what it adds); it must exit 0. */
async function printed(t: TestContext, ...argv: string[]): Promise<string> {
  const before = t.stdout().length;
  expect(await t.run(...argv), t.stderr()).toBe(0);
  return t.stdout().slice(before);
}

/** A JSON array as list --json writes it: an element a line. */
function array(...elements: string[]): string {
  return `[\n  ${elements.join(',\n  ')}\n]\n`;
}

/** The exit code of a command line, and what it adds to stdout and stderr. */
async function outcome(t: TestContext, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const [out, err] = [t.stdout().length, t.stderr().length];
  const code = await t.run(...argv);
  return { code, stdout: t.stdout().slice(out), stderr: t.stderr().slice(err) };
}

describe('--json with fields, as gh takes them', () => {
  it('list --json id,name writes only those, ids exact at ±(2^63-1)', async () => {
    const t = await threePlants();
    const [min, max] = [`{"id":${MIN_PLUS_ONE},"name":"Min"}`, `{"id":${MAX},"name":"Max"}`];
    const expected = array(min, '{"id":3,"name":"Ivy"}', max);
    expect(await printed(t, 'list', '--local', '--json', 'id,name')).toBe(expected);
    expect(await printed(t, 'list', '--local', '--json=id,name')).toBe(expected);
    // In the order of the document, whatever the order asked; each field once.
    expect(await printed(t, 'list', '--local', '--json', 'name,id,name')).toBe(expected);
    const ids = array(`{"id":${MIN_PLUS_ONE}}`, '{"id":3}', `{"id":${MAX}}`);
    expect(await printed(t, 'list', '--local', '--format', 'json', '--json', 'id')).toBe(ids);
  });

  it('--json alone keeps the whole document; every field is the whole document too', async () => {
    const t = await threePlants();
    const whole = await printed(t, 'list', '--local', '--json');
    const [min, max] = [`{"id":${MIN_PLUS_ONE},"name":"Min","tag":"tree"}`, `{"id":${MAX},"name":"Max","tag":"herb"}`];
    expect(whole).toBe(array(min, '{"id":3,"name":"Ivy"}', max));
    expect(await printed(t, 'list', '--local', '--json', 'id,name,tag')).toBe(whole);
  });

  it('a plant without a tag has no tag, asked for or not, as in the whole document', async () => {
    const t = await threePlants();
    expect(await printed(t, 'get', '--local', '3', '--json', 'tag')).toBe('{}\n');
    expect(await printed(t, 'get', '--local', '3', '--json', 'name,tag')).toBe('{\n  "name": "Ivy"\n}\n');
    const max = await printed(t, 'get', '--local', MAX, '--json', 'id,tag');
    expect(max).toBe(`{\n  "id": ${MAX},\n  "tag": "herb"\n}\n`);
  });

  it('leaves a word that is no list of fields to the command: get --json 3 gets plant 3', async () => {
    const t = await threePlants();
    expect(await printed(t, 'get', '--local', '--json', '3')).toBe('{\n  "id": 3,\n  "name": "Ivy"\n}\n');
    const max = await printed(t, 'get', '--json', MAX, '--local');
    expect(max).toBe(`{\n  "id": ${MAX},\n  "name": "Max",\n  "tag": "herb"\n}\n`);
    expect(await printed(t, 'get', '--local', '--json', 'name', '3')).toBe('{\n  "name": "Ivy"\n}\n');
    expect(await printed(t, 'get', '--local', '--json=id', '--', '3')).toBe('{\n  "id": 3\n}\n');
  });

  it('takes fields on create, update and a delete of one id', async () => {
    const t = await threePlants();
    const created = await printed(t, 'create', '--local', '--id', '4', '--name', 'Moss', '--json', 'id');
    expect(created).toBe('{\n  "id": 4\n}\n');
    const updated = await printed(t, 'update', '--local', '4', '--tag', 'green', '--json', 'name,tag');
    expect(updated).toBe('{\n  "name": "Moss",\n  "tag": "green"\n}\n');
    expect(await printed(t, 'delete', '--local', '4', '--json', 'id')).toBe('{\n  "id": 4\n}\n');
    expect(await printed(t, 'delete', '--local', '3', '--json')).toBe('{\n  "deleted": true,\n  "id": 3\n}\n');
  });

  const WHOLE = '--from --json writes its whole summary: it takes no fields';
  const fields = (names: string) => `the fields are ${names} (comma-separated), or --json alone for the whole document`;
  it.each([
    [['list', '--local', '--json', 'id,colour'], `--json: unknown field "colour"; ${fields('id, name, tag')}`, 'list'],
    [['list', '--local', '--json', 'colour'], `--json: unknown field "colour"; ${fields('id, name, tag')}`, 'list'],
    [['get', '--local', '3', '--json=Name'], `--json: unknown field "Name"; ${fields('id, name, tag')}`, 'get'],
    [['list', '--local', '--json='], `--json: an empty field name; ${fields('id, name, tag')}`, 'list'],
    [['list', '--local', '--json', 'id,'], `--json: an empty field name; ${fields('id, name, tag')}`, 'list'],
    [['delete', '--local', '3', '--json=name'], `--json: unknown field "name"; ${fields('deleted, id')}`, 'delete'],
    [['delete', '--local', '--from', '-', '--json', 'id'], WHOLE, 'delete'],
  ])('%j is a usage error that names the fields (exit 2), as a JSON document', async (argv, message, command) => {
    const t = await threePlants();
    const { code, stdout } = await outcome(t, ...argv);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toEqual({ error: 2001, code: 'usage', message, hint: `see plants ${command} --help` });
  });

  it('refuses --json given twice where one names fields: which was meant is not known', async () => {
    const t = await threePlants();
    const { code, stdout } = await outcome(t, 'list', '--local', '--json', 'id', '--json');
    expect(code).toBe(2);
    const message = '--json was given more than once: give it once, with its fields or alone';
    expect(JSON.parse(stdout)).toMatchObject({ code: 'usage', message });
  });

  it('says so in the help: --json [fields], with the fields', async () => {
    const t = await testContext();
    expect(await t.run('get', '--help')).toBe(0);
    // The flag's rows, their wrapping undone.
    const rows = t
      .stdout()
      .split('\n')
      .filter((line) => /^ {2}--json|^ {19}\S/.test(line));
    const flag = rows.join(' ').replace(/\s+/g, ' ');
    expect(flag).toContain('--json [fields] print the outcome, or the failure, as one JSON document on stdout;');
    expect(flag).toContain('with fields (id,name,tag), only those of the plant');
  });

  it('keeps --json a plain flag where the document is no plant: import --json FILE reads FILE', async () => {
    const t = await threePlants();
    const { stdout } = await outcome(t, 'import', '--local', '--json', 'missing.ndjson');
    expect(JSON.parse(stdout)).toMatchObject({ message: expect.stringContaining('missing.ndjson') });
  });
});
