import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storedPlants } from '../helpers/stored-plants.js';
import { testContext, type TestContext } from '../helpers/test-context.js';

/**
 * A store of plants whose names and tags the table escapes, and two it cannot tell apart: one
 * tagged "" and one with no tag.
 */
async function withOddPlants(): Promise<TestContext> {
  const t = await testContext();
  const plants = [
    ['-9223372036854775808', 'tab\there, back\\slash', 'weed'],
    ['1', 'empty tag', ''],
    ['2', 'no tag'],
    ['5', '', ''],
    ['9223372036854775807', 'Max', 'weed'],
  ];
  for (const [id, name, tag] of plants) {
    const tagged = tag === undefined ? [] : ['--tag', tag];
    expect(await t.run('create', '--local', '--id', id as string, '--name', name as string, ...tagged)).toBe(0);
  }
  return t;
}

/** What `plants list` (with `args`) writes to a pipe, in a file. */
async function listed(t: TestContext, name: string, ...args: string[]): Promise<string> {
  const before = t.stdout().length;
  expect(await t.run('list', '--local', ...args)).toBe(0);
  const path = join(t.dir, name);
  await writeFile(path, t.stdout().slice(before));
  return path;
}

const TABLE = "plants list's table (id, name and tag, tab-separated)";
const TABLE_REFUSED =
  `this is ${TABLE}, which cannot tell an empty tag from none: ` + 'write it with plants list --format ndjson';

describe("plants list's table, read back (issue 40)", () => {
  it('cannot tell an empty tag from none: the one loss that keeps import from reading it', async () => {
    const t = await withOddPlants();
    const table = await readFile(await listed(t, 'plants.txt'), 'utf8');
    // Escapes keep every name whole (a tab, a backslash), but both of these end in an empty column.
    expect(table.split('\n').slice(1, 3)).toEqual(['1\tempty tag\t', '2\tno tag\t']);
    expect(table.split('\n')[0]).toBe('-9223372036854775808\ttab\\there, back\\\\slash\tweed');
  });

  const names = ['plants.txt', 'plants', 'plants.csv', 'plants.ndjson', '-'];
  it.each(names)('import of it (%s) says what it is, and what to write instead: exit 2', async (name) => {
    const t = await withOddPlants();
    const path = await listed(t, name === '-' ? 'stdin.txt' : name);
    const into = join(t.dir, 'copy.json');
    const run = name === '-' ? await testContext({ stdin: await readFile(path, 'utf8') }) : t;
    const before = run.stderr().length;
    // It read each line as broken NDJSON: `line 1: not JSON (…)`, every row failed (a comma in the first line:
    // a CSV with no header).
    expect(await run.run('import', name === '-' ? '-' : path, '--local', '--store', into)).toBe(2);
    expect(run.stderr().slice(before)).toBe(`error: ${name === '-' ? 'standard input' : path}: ${TABLE_REFUSED}\n`);
    await expect(readFile(into)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('list --format ndjson then import: every plant as it was, an empty tag too', async () => {
    const t = await withOddPlants();
    const path = await listed(t, 'plants.ndjson', '--format', 'ndjson');
    const into = join(t.dir, 'copy.json');
    expect(await t.run('import', path, '--local', '--store', into)).toBe(0);
    expect(await storedPlants(into)).toEqual(await storedPlants(t.storePath));
  });

  it('delete --from reads its ids, exact: list --tag weed, then delete them', async () => {
    const t = await withOddPlants();
    const path = await listed(t, 'weeds.txt', '--tag', 'weed');
    expect(await t.run('delete', '--local', '--from', path, '--json', '--yes')).toBe(0);
    const summary = JSON.parse(t.stdout().slice(t.stdout().lastIndexOf('{\n  "input"')));
    expect(summary.counts).toMatchObject({ read: 2, deleted: 2, failed: 0 });
    expect([...(await storedPlants(t.storePath)).keys()]).toEqual([1n, 2n, 5n]);
    // From standard input, its first line one with no name and no tag (`5<TAB><TAB>`, no bare id).
    const piped = await testContext({ stdin: await readFile(await listed(t, 'rest.txt'), 'utf8') });
    Object.assign(piped.ctx, { dataDir: t.ctx.dataDir });
    expect(await piped.run('delete', '--local', '--from', '-', '--yes'), piped.stderr()).toBe(0);
    expect((await storedPlants(t.storePath)).size).toBe(0);
  });

  it('delete --from fails a line of another shape, kept as it was, and deletes nothing for it', async () => {
    const t = await withOddPlants();
    const path = join(t.dir, 'edited.txt');
    await writeFile(path, '1\tempty tag\t\n2\tno tag\n99999999999999999999\tbig\t\n');
    const rejects = join(t.dir, 'rejects.ndjson');
    expect(await t.run('delete', '--local', '--from', path, '--rejects', rejects, '--yes')).toBe(1);
    expect(t.stderr()).toContain("  line 2: not a line of plants list's table (an id, a name and a tag, tab-");
    expect(t.stderr()).toContain(': 2\\tno tag\n');
    expect(t.stderr()).toContain('  line 3: id must be between -9223372036854775808 and 9223372036854775807, got 9999');
    expect(await readFile(rejects, 'utf8')).toBe('2\tno tag\n{"id":99999999999999999999}\n');
    const left = [-9223372036854775808n, 2n, 5n, 9223372036854775807n];
    expect([...(await storedPlants(t.storePath)).keys()]).toEqual(left);
  });
});

describe('a file whose name says one format and whose first line shows another (issue 40)', () => {
  it.each([
    ['plants.csv', '{"id":1,"name":"Fern"}\n', 'NDJSON (its first line is a JSON object), not CSV', 'ndjson'],
    ['plants.ndjson', '[{"id":1,"name":"Fern"}]\n', 'a JSON array (it begins with [), not NDJSON', 'json'],
    ['plants.json', 'id,name,tag\n1,Fern,\n', 'CSV (its first line is a header naming id), not a JSON array', 'csv'],
  ])('import %s says what it looks like (exit 2), and reads it with that --format', async (name, text, looks, type) => {
    const t = await testContext();
    const path = join(t.dir, name);
    await writeFile(path, text);
    expect(await t.run('import', path, '--local')).toBe(2);
    // It said `not readable as CSV: Invalid Opening Quote: a quote is found on field 0 …`, and so on.
    expect(t.stderr()).toBe(`error: ${path}: it looks like ${looks} as its name says: give --format ${type}\n`);
    expect(await t.run('import', path, '--local', '--format', type)).toBe(0);
    expect([...(await storedPlants(t.storePath)).values()]).toEqual([{ id: 1n, name: 'Fern' }]);
  });

  it("delete --from of plants list's table named .csv: give --format table", async () => {
    const t = await withOddPlants();
    const path = await listed(t, 'weeds.csv', '--tag', 'weed');
    expect(await t.run('delete', '--local', '--from', path, '--yes')).toBe(2);
    expect(t.stderr()).toContain(`error: ${path}: it looks like ${TABLE}, not CSV as its name says: give --format`);
    expect(t.stderr()).toContain('as its name says: give --format table\n');
    expect(await t.run('delete', '--local', '--from', path, '--format', 'table', '--yes')).toBe(0);
    expect([...(await storedPlants(t.storePath)).keys()]).toEqual([1n, 2n, 5n]);
  });
});
