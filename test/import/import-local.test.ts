import { readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { PlantStore } from '../../src/core/store.js';
import { applyInBatches } from '../../src/import/store-batches.js';
import { BulkTally } from '../../src/import/outcomes.js';
import type { Row } from '../../src/import/row.js';
import type { NewPlant } from '../../src/core/schemas.js';
import { duplicateId } from '../../src/core/create.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { storeMaybeWrittenError } from '../../src/store/store-errors.js';
import { testContext, type TestContext } from '../helpers/test-context.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { storeWith } from '../helpers/stores.js';

async function stored(t: TestContext) {
  return storedPlants(t.storePath);
}

async function file(t: TestContext, name: string, content: string): Promise<string> {
  const path = join(t.dir, name);
  await writeFile(path, content);
  return path;
}

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';

describe('plants import --local', () => {
  it.each([
    ['plants.ndjson', `{"id":${MAX},"name":"Max","tag":"herb"}\n{"id":${MIN},"name":"Min"}\n`],
    ['plants.jsonl', `{"id":${MAX},"name":"Max","tag":"herb"}\r\n\r\n{"id":${MIN},"name":"Min"}`],
    ['plants.csv', `id,name,tag\n${MAX},Max,herb\n${MIN},Min,\n`],
    ['plants.CSV', `\uFEFFName,ID,Tag\r\nMax,${MAX},herb\r\nMin,${MIN},\r\n`],
    ['plants.json', `[{"id":${MAX},"name":"Max","tag":"herb"},{"id":${MIN},"name":"Min"}]`],
  ])('reads %s, int64 bounds exact', async (name, content) => {
    const t = await testContext();
    expect(await t.run('import', await file(t, name, content), '--local')).toBe(0);
    const plants = await stored(t);
    expect([...plants.values()]).toEqual([
      { id: -9223372036854775808n, name: 'Min' },
      { id: 9223372036854775807n, name: 'Max', tag: 'herb' },
    ]);
    expect(t.stderr()).toMatch(/^Imported 2 rows into .* \([\d,]+ rows\/s\): 2 created, 0 skipped, 0 failed\n$/);
  });

  it('reads standard input with --format', async () => {
    const t = await testContext({ stdin: `id,name\n1,Fern\n2,Oak\n` });
    expect(await t.run('import', '-', '--format', 'csv', '--local', '--json')).toBe(0);
    expect(JSON.parse(t.stdout()).counts).toMatchObject({ read: 2, created: 2 });
    expect((await stored(t)).size).toBe(2);
  });

  const MIXED = [
    '{"id":1,"name":"Fern","tag":"herb"}', // line 1: created
    '{"id":2,"name":5}', // line 2: invalid
    '', // line 3: blank, ignored
    '{"id":1,"name":"Fern again"}', // line 4: duplicate of line 1
    'not json at all', // line 5: malformed
    '{"id":9223372036854775808,"name":"Too big"}', // line 6: out of range
    '{"id":3,"name":"Oak","colour":"green"}', // line 7: created, extra field dropped
    '{"id":4}', // line 8: invalid
  ].join('\n');

  it('goes on past bad rows and reports each with its line, id and problem (exit 1)', async () => {
    const t = await testContext();
    const input = await file(t, 'mixed.ndjson', MIXED);
    const rejects = join(t.dir, 'rejects.ndjson');
    const report = join(t.dir, 'report.json');
    expect(await t.run('import', input, '--local', '--rejects', rejects, '--report', report)).toBe(1);
    expect([...(await stored(t)).values()]).toEqual([
      { id: 1n, name: 'Fern', tag: 'herb' },
      { id: 3n, name: 'Oak' },
    ]);
    expect(t.stderr()).toContain(': 2 created, 0 skipped, 5 failed\n');
    expect(t.stderr()).toContain('  line 2 (id 2): name must be a string, got 5\n');
    expect(t.stderr()).toContain('  line 4 (id 1): a plant with id 1 already exists\n');
    expect(t.stderr()).toContain('  line 5: not JSON (');
    expect(t.stderr()).toContain(
      '  line 6: id must be between -9223372036854775808 and 9223372036854775807, got 9223372036854775808\n',
    );
    expect(t.stderr()).toContain('  line 8 (id 4): name is required\n');
    expect(await readFile(rejects, 'utf8')).toBe(
      '{"id":2,"name":5}\n' +
        'not json at all\n' +
        '{"id":9223372036854775808,"name":"Too big"}\n' +
        '{"id":4}\n' +
        '{"id":1,"name":"Fern again"}\n',
    );
    const summary = JSON.parse(await readFile(report, 'utf8'));
    expect(summary.counts).toEqual({ read: 7, created: 2, skipped: 0, valid: 0, failed: 5, unknown: 0, notSent: 0 });
    // In line order (issue 40): the duplicate, counted with its batch, came last.
    expect(
      summary.failures.map((f: { line: number; code: string; error: number }) => [f.line, f.code, f.error]),
    ).toEqual([
      [2, 'invalid_plant', 1001],
      [4, 'duplicate_id', 1002],
      [5, 'malformed_json', 1003],
      [6, 'invalid_plant', 1001],
      [8, 'invalid_plant', 1001],
    ]);
  });

  it.each(['rejects.ndjson', 'rejects.jsonl', 'rejects.json', 'rejects.txt', 'rejects'])(
    'writes rejects (%s) that plants import retries exactly, as they are named',
    async (name) => {
      const t = await testContext();
      const rejects = join(t.dir, name);
      await t.run('import', await file(t, 'mixed.ndjson', MIXED), '--local', '--rejects', rejects);
      const again = join(t.dir, `again-${name}`);
      expect(await t.run('import', rejects, '--local', '--json', '--rejects', again), t.stderr()).toBe(1);
      const summary = JSON.parse(t.stdout());
      expect(summary.counts).toMatchObject({ read: 5, created: 0, failed: 5 });
      const lines = async (path: string) => (await readFile(path, 'utf8')).split('\n').sort();
      expect(await lines(again)).toEqual(await lines(rejects));
    },
  );

  it('reads back rejects whose first row is text that was never JSON, under a name that says no format', async () => {
    const t = await testContext();
    const rejects = join(t.dir, 'rejects');
    expect(
      await t.run(
        'import',
        await file(t, 'odd.ndjson', 'not json\n{"id":1,"name":"ok"}\n[1]\n'),
        '--local',
        '--rejects',
        rejects,
      ),
    ).toBe(1);
    expect(await readFile(rejects, 'utf8')).toBe('not json\n[1]\n');
    const again = join(t.dir, 'again');
    expect(await t.run('import', rejects, '--local', '--json', '--rejects', again), t.stderr()).toBe(1);
    expect(JSON.parse(t.stdout().slice(t.stdout().lastIndexOf('\n{\n') + 1)).counts).toMatchObject({
      read: 2,
      created: 0,
      failed: 2,
    });
    expect(await readFile(again, 'utf8')).toBe('not json\n[1]\n');
  });

  it('refuses --rejects named .csv before reading anything (exit 2): CSV cannot hold every row', async () => {
    const t = await testContext();
    const rejects = join(t.dir, 'rejects.csv');
    expect(await t.run('import', await file(t, 'mixed.ndjson', MIXED), '--local', '--rejects', rejects)).toBe(2);
    expect(t.stderr()).toContain(
      'rejects are written as NDJSON (or a JSON array for a .json name), which CSV cannot hold: name it .ndjson',
    );
    expect(await readdir(t.dir)).not.toContain('rejects.csv');
    expect((await stored(t)).size).toBe(0);
  });

  it('reads a file whose name says no format by its first line, as standard input', async () => {
    const t = await testContext();
    const input = await file(t, 'backup.txt', `{"id":${MAX},"name":"Max"}\n{"id":${MIN},"name":"Min","tag":""}\n`);
    expect(await t.run('import', input, '--local'), t.stderr()).toBe(0);
    expect([...(await stored(t)).values()]).toEqual([
      { id: BigInt(MIN), name: 'Min', tag: '' },
      { id: BigInt(MAX), name: 'Max' },
    ]);
  });

  it('keeps a row that is JSON but no object as JSON in --rejects, and text that is no JSON as it was', async () => {
    const t = await testContext();
    const rejects = join(t.dir, 'rejects.ndjson');
    await t.run(
      'import',
      await file(t, 'odd.ndjson', '"just text"\n[1]\n5\nnot json\n'),
      '--local',
      '--rejects',
      rejects,
    );
    expect(await readFile(rejects, 'utf8')).toBe('"just text"\n[1]\n5\nnot json\n');
  });

  it('counts a duplicate as already there with --on-conflict skip (exit 0)', async () => {
    const t = await testContext();
    const input = await file(t, 'p.csv', 'id,name\n1,Fern\n2,Oak\n');
    expect(await t.run('import', input, '--local')).toBe(0);
    expect(await t.run('import', input, '--local', '--on-conflict', 'skip', '--json')).toBe(0);
    expect(JSON.parse(t.stdout()).counts).toMatchObject({ created: 0, skipped: 2, failed: 0 });
    expect(await t.run('import', input, '--local')).toBe(1);
  });

  it('validates every row and writes nothing with --dry-run', async () => {
    const t = await testContext();
    const input = await file(t, 'p.csv', 'id,name,tag\n1,Fern,\nx,Oak,\n3,Ivy,vine\n');
    expect(await t.run('import', input, '--local', '--dry-run', '--json')).toBe(1);
    expect(JSON.parse(t.stdout()).counts).toMatchObject({ read: 3, valid: 2, failed: 1, created: 0 });
    await expect(readFile(t.storePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stops at the first failure with --fail-fast, counting the rest as not sent', async () => {
    const t = await testContext();
    const input = await file(
      t,
      'p.ndjson',
      '{"id":1,"name":"a"}\n{"id":2}\n{"id":3,"name":"c"}\n{"id":4,"name":"d"}\n',
    );
    const rejects = join(t.dir, 'rejects.ndjson');
    expect(await t.run('import', input, '--local', '--fail-fast', '--json', '--rejects', rejects)).toBe(1);
    expect(JSON.parse(t.stdout()).counts).toMatchObject({ read: 4, created: 1, failed: 1, notSent: 2 });
    expect(await readFile(rejects, 'utf8')).toBe('{"id":2}\n{"id":3,"name":"c"}\n{"id":4,"name":"d"}\n');
  });

  it.each([
    ['\n', 'LF'],
    ['\r\n', 'CRLF'],
    ['\r', 'CR'],
  ])('gives CSV rows their lines past blank lines and quoted line breaks (%j, %s)', async (eol) => {
    const t = await testContext();
    const lines = ['id,name,tag', '', 'x1,"Two', 'lines",x', '', '', '2,Oak', '3,Ivy,vine,extra', '4,Fern,'];
    const input = await file(t, 'p.csv', lines.join(eol) + eol);
    expect(await t.run('import', input, '--local', '--json')).toBe(1);
    const { counts, failures } = JSON.parse(t.stdout());
    expect(counts).toMatchObject({ read: 4, created: 1, failed: 3 });
    expect(failures.map((f: { line: number }) => f.line)).toEqual([3, 7, 8]);
  });

  it(
    'reads an empty CSV tag cell as no tag, an empty name as an empty name, and a quoted line break as part of ' +
      'the name',
    async () => {
      const t = await testContext();
      const input = await file(t, 'p.csv', 'id,name,tag\n1,,\n2,"Two\r\nlines",""\n3,Fern,herb\n');
      expect(await t.run('import', input, '--local')).toBe(0);
      expect([...(await stored(t)).values()]).toEqual([
        { id: 1n, name: '' },
        { id: 2n, name: 'Two\r\nlines' },
        { id: 3n, name: 'Fern', tag: 'herb' },
      ]);
    },
  );

  it('says where a bad row is once, and counts one row as one row', async () => {
    const t = await testContext();
    const input = await file(t, 'p.csv', 'id,name\nx\n');
    const rejects = join(t.dir, 'rejects.ndjson');
    expect(await t.run('import', input, '--local', '--rejects', rejects)).toBe(1);
    expect(t.stderr()).toMatch(/^Imported none of 1 row into /);
    expect(t.stderr()).toContain('\n  line 2: row has 1 field, the header has 2\n');
    expect(t.stderr()).toContain(
      `\n1 row not created was written to ${rejects}: fix it, then plants import ${rejects}\n`,
    );
  });

  it('says none of the rows was imported where every one failed or was skipped, and not where one was', async () => {
    const t = await testContext();
    const input = await file(t, 'p.ndjson', '{"id":1,"name":"Fern"}\n{"id":"x","name":"Oak"}\n');
    const summaryOf = async (...argv: string[]) => {
      const before = t.stderr().length;
      expect(await t.run('import', input, '--local', ...argv)).toBe(1);
      return t.stderr().slice(before);
    };
    expect(await summaryOf('--on-conflict', 'skip')).toMatch(
      /^Imported 2 rows into .*: 1 created, 0 skipped, 1 failed\n/,
    );
    expect(await summaryOf('--on-conflict', 'skip')).toMatch(
      /^Imported none of 2 rows into .*: 0 created, 1 skipped, 1 failed\n/,
    );
    // A row the store holds as it is was imported: the store is as the file says.
    expect(await summaryOf('--on-conflict', 'update')).toMatch(
      /^Imported 2 rows into .*: 0 created, 0 updated, 1 unchanged, 1 failed\n/,
    );
  });

  it('gives CSV rows the line they start on, and a wrong field count per row', async () => {
    const t = await testContext();
    const input = await file(t, 'p.csv', 'id,name,tag\nx1,"Two\nlines",x\n2,Oak\n3,Ivy,vine,extra\n4,Fern,\n');
    expect(await t.run('import', input, '--local', '--json')).toBe(1);
    const { counts, failures } = JSON.parse(t.stdout());
    expect(counts).toMatchObject({ created: 1, failed: 3 });
    expect(failures.map((f: { line: number; message: string }) => [f.line, f.message])).toEqual([
      [2, 'invalid plant: id must be a base-10 integer, got "x1"'],
      [4, 'row has 2 fields, the header has 3'],
      [5, 'row has 4 fields, the header has 3'],
    ]);
  });

  it.each([
    [
      'a JSON array after blank lines',
      ['\n  ', '\t\r\n', `[{"id":${MAX},"name":"Max"},`, `{"id":${MIN},"name":"Min"}]`],
    ],
    ['NDJSON after a byte order mark', ['\uFEFF', `{"id":${MAX},"name":"Max"}\n{"id":${MIN},"name":"Min"}\n`]],
    ['CSV, its header cut in two', ['\n id,na', `me,tag\n${MAX},Max,\n${MIN},Min,\n`]],
  ])('tells the format of standard input by its first byte that is not blank: %s', async (_what, chunks) => {
    const t = await testContext();
    Object.assign(t.ctx.io, { stdin: Readable.from(chunks.map((chunk) => Buffer.from(chunk))) });
    expect(await t.run('import', '-', '--local'), t.stderr()).toBe(0);
    expect([...(await stored(t)).values()]).toEqual([
      { id: BigInt(MIN), name: 'Min' },
      { id: BigInt(MAX), name: 'Max' },
    ]);
  });

  it(
    'imports nothing from an empty standard input (exit 0), and refuses to guess from one blank for too long ' +
      '(exit 2)',
    async () => {
      const empty = await testContext({ stdin: '' });
      expect(await empty.run('import', '-', '--local')).toBe(0);
      expect(empty.stderr()).toContain('Imported 0 rows');
      const blank = await testContext({ stdin: ' \n'.repeat(40_000) });
      expect(await blank.run('import', '-', '--local')).toBe(2);
      expect(blank.stderr()).toContain(
        'error: cannot tell the format of standard input: its first 65,536 bytes are blank: give --format',
      );
    },
  );

  it.each([
    [['nowhere.csv'], 'no such file: '],
    // A name that says no format: the first line tells (here, CSV without its header).
    [['p.txt'], 'the first CSV line must be a header naming the columns id, name and optionally tag; got hello'],
    [
      ['p.txt', '--format', 'csv'],
      'the first CSV line must be a header naming the columns id, name and optionally tag; got hello',
    ],
    [['empty.csv'], 'the CSV input is empty: expected a header row id,name,tag'],
    [['obj.json'], 'it looks like NDJSON (its first line is a JSON object), not a JSON array as its name says'],
    [['obj.json', '--format', 'json'], 'a JSON input must be an array of plants: use NDJSON for one plant per line'],
    [['bad.json'], 'not valid JSON'],
    [['p.txt', '--format', 'xml'], '--format must be one of ndjson, csv, json, got "xml"'],
  ])('refuses an unreadable input %j (exit 2)', async (args, message) => {
    const t = await testContext();
    await file(t, 'p.txt', 'hello,world\n1,2\n');
    await file(t, 'empty.csv', '');
    await file(t, 'obj.json', '{"id":1,"name":"a"}');
    await file(t, 'bad.json', '[{"id":1,');
    const [name, ...rest] = args as [string, ...string[]];
    expect(await t.run('import', join(t.dir, name), ...rest, '--local')).toBe(2);
    expect(t.stderr()).toMatch(/^error: /);
    expect(t.stderr()).toContain(message);
    // Every one of these names the input it is about.
    if (!message.startsWith('--format')) expect(t.stderr()).toContain(join(t.dir, name));
  });
});

describe('plants import: files that fail part way', () => {
  it('gives the account of rows already imported when the CSV turns unreadable (exit 2)', async () => {
    const t = await testContext();
    const input = join(t.dir, 'p.csv');
    await writeFile(input, 'id,name\n1,Fern\n2,"never closed\n3,Oak\n');
    expect(await t.run('import', input, '--local', '--json')).toBe(2);
    const summary = JSON.parse(t.stdout());
    expect(summary.counts).toMatchObject({ read: 1, created: 1 });
    expect(summary.stoppedBy).toMatchObject({ code: 'unreadable_input', error: 2011 });
    expect(summary.stoppedBy.message).toMatch(
      new RegExp(`^${input.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not readable as CSV: `),
    );
    // The rows before the unreadable one are stored.
    expect([...(await stored(t)).keys()]).toEqual([1n]);
  });

  it('refuses a rejects file it cannot write before importing anything (exit 2)', async () => {
    const t = await testContext();
    const input = join(t.dir, 'p.csv');
    await writeFile(input, 'id,name\n1,Fern\n');
    expect(await t.run('import', input, '--local', '--rejects', join(t.dir, 'no', 'such', 'dir.ndjson'))).toBe(2);
    expect(t.stderr()).toContain(
      `error: cannot write the --rejects file ${join(t.dir, 'no', 'such', 'dir.ndjson')}: no such file or ` +
        'directory (ENOENT)',
    );
    await expect(readFile(t.storePath)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.runIf(process.platform === 'linux')(
    'closes the input and the --rejects file when the --report file cannot be opened',
    async () => {
      const t = await testContext();
      const input = join(t.dir, 'p.csv');
      const rejects = join(t.dir, 'rejects.ndjson');
      await writeFile(input, 'id,name\n1,Fern\n');
      expect(
        await t.run(
          'import',
          input,
          '--local',
          '--rejects',
          rejects,
          '--report',
          join(t.dir, 'no', 'such', 'report.json'),
        ),
      ).toBe(2);
      // What this process still has open, as Linux lists it.
      const links = await Promise.all(
        (await readdir('/proc/self/fd')).map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')),
      );
      expect(links.filter((target) => target === input || target === rejects)).toEqual([]);
    },
  );
});

describe('plants import output files', () => {
  it('refuses a --rejects or --report that is the input, the store or the other (exit 2): no change', async () => {
    const t = await testContext();
    const input = join(t.dir, 'rejects.ndjson');
    await writeFile(input, '{"id":1,"name":"a"}\n');
    expect(await t.run('import', input, '--local', '--rejects', input)).toBe(2);
    expect(t.stderr()).toContain(`error: --rejects ${input} is the input: writing it would destroy it`);
    expect(await readFile(input, 'utf8')).toBe('{"id":1,"name":"a"}\n');
    expect(await t.run('import', input, '--local')).toBe(0);
    const journal = await readFile(`${t.storePath}.journal`, 'utf8');
    expect(await t.run('import', input, '--local', '--on-conflict', 'skip', '--report', t.storePath)).toBe(2);
    expect(t.stderr()).toContain(`error: --report ${t.storePath} is the store: writing it would destroy it`);
    expect(await t.run('import', input, '--local', '--on-conflict', 'skip', '--report', `${t.storePath}.journal`)).toBe(
      2,
    );
    expect(t.stderr()).toContain(
      `error: --report ${t.storePath}.journal is the store's journal: writing it would destroy it`,
    );
    expect(await readFile(`${t.storePath}.journal`, 'utf8')).toBe(journal);
    const same = join(t.dir, 'out.json');
    expect(await t.run('import', input, '--dry-run', '--rejects', same, '--report', same)).toBe(2);
    expect(t.stderr()).toContain(`error: --report ${same} is the file of --rejects`);
  });

  it('says so, and exits 1, when the rejects cannot be written in full', async () => {
    const t = await testContext();
    const input = join(t.dir, 'p.ndjson');
    await writeFile(input, '{"id":1,"name":"a"}\n{"id":2}\n');
    expect(await t.run('import', input, '--local', '--rejects', '/dev/full', '--json')).toBe(1);
    const summary = JSON.parse(t.stdout());
    expect(summary.counts).toMatchObject({ created: 1, failed: 1 });
    expect(summary.outputErrors).toEqual([
      'could not write the --rejects file /dev/full: no space left on device (ENOSPC)',
    ]);
  });
});

describe('applyInBatches (an import --local)', () => {
  async function* runs(rows: Row<NewPlant>[]): AsyncIterable<Row<NewPlant>[]> {
    yield rows;
  }

  it('counts a batch whose write failed once in place as unknown, not as not sent', async () => {
    const memory = new MemoryStore();
    // Stored, then failed: as a store file renamed into place whose directory fsync fails.
    const store: PlantStore = storeWith({
      addAll: async (plants) => {
        await memory.addAll(plants);
        throw storeMaybeWrittenError(
          '/tmp/plants.json',
          'fsync the directory of',
          Object.assign(new Error('EIO'), { code: 'EIO' }),
        );
      },
    });
    const tally = new BulkTally<NewPlant>();
    const rows: Row<NewPlant>[] = [1n, 2n].map((id, i) => ({ at: { line: i + 1 }, value: { id, name: `p${id}` }, id }));
    const work = async (plants: NewPlant[]) =>
      (await store.addAll(plants)).map((outcome) => (outcome === 'added' ? ('done' as const) : ('noop' as const)));
    await applyInBatches(runs(rows), work, (row) => duplicateId(row.id), tally, {
      onNoop: 'fail',
      failFast: false,
      dryRun: false,
    });
    expect(memory.plants.size).toBe(2);
    expect(tally.counts).toMatchObject({ done: 0, unknown: 2, notSent: 0 });
    expect(tally.stoppedBy?.message).toContain('the plants may or may not be stored');
  });
});
