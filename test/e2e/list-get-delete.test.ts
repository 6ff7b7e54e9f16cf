import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { watchedOutput } from '../../src/cli/watched-output.js';
import { parseJson, stringifyJson } from '../../src/core/json.js';
import type { NewPlant } from '../../src/core/schemas.js';
import type { ListQuery } from '../../src/core/store.js';
import { BIN, exited, isolatedEnv, runPlants, startPlants } from '../helpers/cli-process.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { testContext, type TestContext } from '../helpers/test-context.js';
import { pattern } from '../helpers/pattern.js';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;
/** Plants with every kind of name the contract allows, and the int64 bounds. */
const ODD: NewPlant[] = [
  { id: MIN, name: 'Min' },
  { id: -1n, name: '', tag: 'empty name' },
  { id: 0n, name: 'tab\there, "quoted", comma', tag: 'x' },
  { id: 1n, name: 'two\nlines\r\nand a CR' },
  { id: 2n, name: '\u202eesreveR \u{1F331} é', tag: '\u200f' },
  { id: MAX, name: 'Max', tag: 'tree' },
];
/** Plants CSV cannot carry: an empty tag, a NUL, a lone surrogate. */
const NOT_CSV: NewPlant[] = [
  { id: 10n, name: 'empty tag', tag: '' },
  { id: 11n, name: 'nul\u0000' },
  { id: 12n, name: 'lone \ud800' },
];

/** The --json summary of bulk work, its failures' ids exact. */
interface Summary {
  counts: Record<string, number>;
  failures: { id?: unknown; code: string }[];
  rejectsWritten: number;
}

function summaryOf(text: string): Summary {
  return { ...(JSON.parse(text) as Summary), failures: (parseJson(text) as Summary).failures };
}

/** What a store must carry through a pipe: the int64 bounds, and names of every kind. */
const PIPED: NewPlant[] = [
  { id: MIN, name: '' },
  { id: -1n, name: 'tab\there\tand\tthere', tag: '' },
  { id: 0n, name: 'two\nlines\r\n', tag: 'a,"b"' },
  { id: 1n, name: 'escape \u001b[2J and a bell \u0007' },
  { id: 2n, name: 'lone \ud800 surrogate', tag: '\u{1F331}' },
  { id: MAX, name: '\u{1F331}\u{1F333} emoji', tag: 'tree' },
];

const line = (plant: NewPlant) =>
  `{"id":${plant.id},"name":${JSON.stringify(plant.name)}` +
  `${plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`}}`;

async function localStoreWith(plants: NewPlant[]): Promise<TestContext> {
  const t = await testContext();
  const input = join(t.dir, 'seed.ndjson');
  await writeFile(input, plants.map(line).join('\n'));
  expect(await t.run('import', input, '--local')).toBe(0);
  return t;
}

let servers: RunningServer[] = [];
let fakes: FakeService[] = [];
afterEach(async () => {
  await Promise.all([...servers.map((server) => server.stop('SIGKILL')), ...fakes.map((fake) => fake.close())]);
  servers = [];
  fakes = [];
});

describe('plants list', () => {
  it('writes NDJSON that plants import reads back exactly, from the store to a service and back', async () => {
    const t = await localStoreWith([...ODD, ...NOT_CSV]);
    expect(await t.run('list', '--local', '--format', 'ndjson')).toBe(0);
    const exported = t.stdout().slice(t.stdout().indexOf('{'));
    expect(exported).toBe(
      `${[...ODD, ...NOT_CSV]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map(line)
        .join('\n')}\n`,
    );
    // To a service, through a pipe, and back out of it: the same text.
    const home = await tempDir();
    const server = await startServer(home);
    servers.push(server);
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    const child = spawn(process.execPath, [BIN, 'import', '-', '--format', 'ndjson'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const imported = exited(child);
    child.stdin?.end(exported);
    expect((await imported).code).toBe(0);
    const back = await runPlants(['list', '--format', 'ndjson'], env);
    expect(back.code).toBe(0);
    expect(back.stdout).toBe(exported);
  });

  it.each([
    ['NDJSON', ['--format', 'ndjson'], PIPED],
    ['a JSON array (--json)', ['--json'], PIPED],
    ['CSV', ['--format', 'csv'], PIPED.filter((plant) => !plant.name.includes('\ud800') && plant.tag !== '')],
    ['NDJSON, of no plants', ['--format', 'ndjson'], []],
  ])(
    'plants list (%s) | plants import - tells the format by itself: the second store lists the same bytes',
    async (_what, format, plants) => {
      const home = await tempDir();
      const env = isolatedEnv(home);
      const [first, second] = [join(home, 'first.json'), join(home, 'second.json')];
      if (plants.length > 0) {
        await writeFile(join(home, 'seed.ndjson'), plants.map(line).join('\n'));
        expect((await runPlants(['import', join(home, 'seed.ndjson'), '--local', '--store', first], env)).code).toBe(0);
      }
      const list = startPlants(['list', '--local', '--store', first, ...format], env);
      const load = startPlants(['import', '-', '--local', '--store', second, '--json'], env);
      list.stdin?.end();
      list.stdout!.pipe(load.stdin!);
      const [listed, loaded] = await Promise.all([exited(list), exited(load)]);
      expect(listed).toMatchObject({ code: 0, stderr: '' });
      expect(loaded.code, loaded.stderr).toBe(0);
      expect(JSON.parse(loaded.stdout).counts).toMatchObject({ read: plants.length, created: plants.length });
      const again = await runPlants(['list', '--local', '--store', second, ...format], env);
      expect(again).toMatchObject({ code: 0, stdout: listed.stdout });
    },
  );

  it('writes CSV that plants import reads back exactly, and names the plants CSV cannot carry (exit 1)', async () => {
    const t = await localStoreWith([...ODD, ...NOT_CSV]);
    expect(await t.run('list', '--local', '--format', 'csv')).toBe(1);
    for (const { id } of NOT_CSV) expect(t.stderr()).toContain(`plants list: plant ${id} cannot be written as CSV`);
    const csv = t.stdout();
    expect(csv.split('\n')[0]).toBe('id,name,tag');
    const back = await testContext();
    const file = join(back.dir, 'plants.csv');
    await writeFile(file, csv);
    expect(await back.run('import', file, '--local')).toBe(0);
    expect([...(await storedPlants(back.storePath)).values()]).toEqual([...ODD].sort((a, b) => (a.id < b.id ? -1 : 1)));
  });

  it(
    'writes a line a plant in a pipe, tab-separated, control characters escaped; --json is one document, ids ' +
      'exact',
    async () => {
      const t = await localStoreWith(ODD);
      expect(await t.run('list', '--local')).toBe(0);
      expect(t.stdout().split('\n')).toEqual([
        `${MIN}\tMin\t`,
        '-1\t\tempty name',
        '0\ttab\\there, "quoted", comma\tx',
        '1\ttwo\\nlines\\r\\nand a CR\t',
        '2\t\\u202eesreveR \u{1F331} é\t\\u200f',
        `${MAX}\tMax\ttree`,
        '',
      ]);
      const json = await localStoreWith(ODD);
      expect(await json.run('list', '--local', '--json')).toBe(0);
      expect(stringifyJson(parseJson(json.stdout()))).toBe(`[${ODD.map(line).join(',')}]`);
      expect(json.stdout()).toContain(`{"id":${MAX},"name":"Max","tag":"tree"}`);
      expect(json.stdout().startsWith(`[\n  {"id":${MIN},"name":"Min"},\n`)).toBe(true);
      const empty = await testContext();
      expect(await empty.run('list', '--local', '--json')).toBe(0);
      expect(empty.stdout()).toBe('[]\n');
    },
  );

  it('shows a backslash doubled in a line a plant, so that no name looks like another', async () => {
    const t = await localStoreWith([
      { id: 1n, name: 'two\nlines' },
      { id: 2n, name: 'two\\nlines', tag: 'a\\tb' },
      { id: 3n, name: '\\u001b[2J' },
      { id: 4n, name: '\u001b[2J' },
    ]);
    expect(await t.run('list', '--local')).toBe(0);
    expect(t.stdout()).toBe('1\ttwo\\nlines\t\n2\ttwo\\\\nlines\ta\\\\tb\n3\t\\\\u001b[2J\t\n4\t\\u001b[2J\t\n');
  });

  it('lists after an id, with a tag, and at most --limit plants, across pages', async () => {
    const plants = Array.from({ length: 2_500 }, (_, i): NewPlant => ({
      id: BigInt(i),
      name: `p${i}`,
      ...(i % 3 === 0 ? { tag: 'third' } : {}),
    }));
    const t = await localStoreWith(plants);
    expect(await t.run('list', '--local', '--format', 'ndjson', '--after', '1000', '--limit', '1200')).toBe(0);
    const ids = t
      .stdout()
      .trim()
      .split('\n')
      .map((text) => stringifyJson((parseJson(text) as { id: unknown }).id));
    expect(ids).toEqual(Array.from({ length: 1200 }, (_, i) => String(1001 + i)));
    const tagged = await localStoreWith(plants);
    expect(await tagged.run('list', '--local', '--format', 'ndjson', '--tag', 'third')).toBe(0);
    expect(tagged.stdout().trim().split('\n')).toHaveLength(834);
  });

  it.each([
    [['list', '--limit', '0'], '--limit must be a whole number from 1, got "0"'],
    [['list', '--format', 'xml'], '--format must be one of ndjson, csv, json, got "xml"'],
    [['list', '--format', 'csv', '--json'], 'give --json or --format, not both'],
    [['list', '--local', '--after', '1e3'], '--after must be a base-10 integer, got "1e3"'],
    [
      ['list', '--after', '9223372036854775808'],
      '--after must be between -9223372036854775808 and 9223372036854775807, got 9223372036854775808',
    ],
    [['list', '--local', '--after', '', '--json'], '--after must be a base-10 integer, got ""'],
    [['get', '--local', '--id', '0x10'], '--id must be a base-10 integer, got "0x10"'],
    [['get', '--local'], "give the plant's id with --id"],
    [['get', '--id', '1.5', '--json'], '--id must be a base-10 integer, got "1.5"'],
    [['delete', '--local', '--id', ' 1'], '--id must be a base-10 integer, got " 1"'],
    [
      ['delete', '--id', '-9223372036854775809', '--json'],
      '--id must be between -9223372036854775808 and 9223372036854775807, got -9223372036854775809',
    ],
  ])('%j is a usage error naming the flag (exit 2)', async (argv, message) => {
    const t = await testContext();
    expect(await t.run(...argv)).toBe(2);
    expect(argv.includes('--json') ? JSON.parse(t.stdout()).message : t.stderr()).toContain(
      argv.includes('--json') ? message : `error: ${message}`,
    );
    if (argv.includes('--json'))
      expect(JSON.parse(t.stdout())).toMatchObject({
        error: 2001,
        code: 'usage',
        hint: `see plants ${argv[0]} --help`,
      });
    else expect(t.stderr()).toContain(`hint: see plants ${argv[0]} --help`);
  });

  it('reads no more pages once stdout takes nothing more (its reader gone, as for | head -1)', async () => {
    const t = await localStoreWith(
      Array.from({ length: 5_000 }, (_, i): NewPlant => ({ id: BigInt(i), name: `plant ${i}` })),
    );
    // A stdout whose reader goes away at the first page: the write fails, as with EPIPE.
    const closing = new Writable({
      write: (_chunk, _encoding, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    });
    closing.on('error', () => undefined);
    let pages = 0;
    const seeded = t.stderr().length;
    const openStore = t.ctx.openStore;
    Object.assign(t.ctx.io, { stdout: watchedOutput(closing) });
    Object.assign(t.ctx, {
      openStore: async (location: Parameters<typeof openStore>[0]) => {
        const store = await openStore(location);
        return Object.assign(store, {
          list: (query: ListQuery) => ((pages += 1), Object.getPrototypeOf(store).list.call(store, query)),
        });
      },
    });
    for (const format of [['--format', 'ndjson'], ['--format', 'csv'], ['--json'], []]) {
      pages = 0;
      expect(await t.run('list', '--local', ...format)).toBe(0);
      expect(pages, format.join(' ')).toBeLessThanOrEqual(1);
    }
    expect(t.stderr().slice(seeded)).toBe('');
  });

  it('--json that fails part way reports on stderr, never a second document on stdout', async () => {
    const fake = await fakeService();
    fakes.push(fake);
    // Ten pages of plants, up to id 10,000, then the store is away: the pages before are written as read.
    fake.answer((request) => {
      const after = Number(new URL(request.url, 'http://x').searchParams.get('after') ?? 0);
      if (after >= 10_000) return { status: 503, body: '{"error":1009,"message":"the store is away"}' };
      return {
        status: 200,
        body:
          '[' +
          `${Array.from({ length: 1000 }, (_, i) => `{"id":${after + i + 1},"name":"p${after + i + 1}"}`).join(',')}` +
          ']',
      };
    });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    expect(await t.run('list', '--json')).toBe(4);
    expect(t.stdout().startsWith('[\n  {"id":1,"name":"p1"}')).toBe(true);
    expect(t.stdout()).toContain('{"id":10000,"name":"p10000"}');
    expect(t.stdout()).not.toContain('"error"');
    expect(t.stderr()).toContain('error: ');
    expect(t.stderr()).toContain('the store is away');
    // And a failure before any page is the one document.
    const first = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    expect(await first.run('list', '--json', '--after', '10000')).toBe(4);
    expect(JSON.parse(first.stdout())).toMatchObject({
      error: expect.any(Number),
      message: expect.stringContaining('the store is away'),
    });
  });

  it('says which service has no GET /plants (it may implement only the contract)', async () => {
    const fake = await fakeService();
    fakes.push(fake);
    fake.answer({ status: 405, body: '{"error":1008,"message":"only POST"}' });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    expect(await t.run('list')).toBe(4);
    expect(t.stderr()).toContain('error: the service has no GET /plants (HTTP 405): only POST');
  });
});

describe('plants get and plants delete', () => {
  it('a delete answered with a redirect (exit 4) may or may not have deleted the plant, and says so', async () => {
    const fake = await fakeService();
    fakes.push(fake);
    fake.answer({ status: 307, body: '', headers: { location: '/moved/plants/1' } });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    expect(await t.run('delete', '--id', '1')).toBe(4);
    expect(t.stderr()).toContain(
      'error: the service answered HTTP 307, a redirect to /moved/plants/1, which plants does not follow: the ' +
        'plant may or may not have been deleted\n',
    );
  });

  it('get shows a plant by id (exit 0), and a clear message for none (exit 1); the same on a service', async () => {
    const t = await localStoreWith(ODD);
    expect(await t.run('get', '--local', '--id', String(MAX), '--json')).toBe(0);
    expect(t.stdout()).toBe(`{\n  "id": ${MAX},\n  "name": "Max",\n  "tag": "tree"\n}\n`);
    expect(await t.run('get', '--local', '--id', '2')).toBe(0);
    expect(t.stdout()).toContain('id   2\nname \\u202eesreveR \u{1F331} é\ntag  \\u200f\n');
    // A backslash is shown doubled: the escapes of a name's control characters are the only single ones.
    expect(await t.run('create', '--local', '--id', '4', '--name', 'two\\nchars', '--tag', '\\')).toBe(0);
    expect(await t.run('get', '--local', '--id', '4')).toBe(0);
    expect(t.stdout()).toContain('id   4\nname two\\\\nchars\ntag  \\\\\n');
    expect(await t.run('get', '--local', '--id', '3')).toBe(1);
    expect(t.stderr()).toMatch(/\nerror: no plant with id 3\n$/);
    expect(await t.run('get', '--local', '--id', 'x')).toBe(2);

    const home = await tempDir();
    const server = await startServer(home);
    servers.push(server);
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    expect((await runPlants(['create', '--id', String(MIN), '--name', 'Min'], env)).code).toBe(0);
    const got = await runPlants(['get', '--id', String(MIN), '--json'], env);
    expect(got).toMatchObject({ code: 0, stdout: `{\n  "id": ${MIN},\n  "name": "Min"\n}\n` });
    const none = await runPlants(['get', '--id', '7', '--json'], env);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout)).toEqual({ error: 1007, code: 'not_found', message: 'no plant with id 7' });
  });

  it('delete deletes by id (exit 0), and says so when there is none (exit 1); the same on a service', async () => {
    const t = await localStoreWith(ODD);
    expect(await t.run('delete', '--local', '--id', '0')).toBe(0);
    expect(t.stdout()).toBe(`Deleted plant 0 from ${t.storePath}\n`);
    expect(await t.run('delete', '--local', '--id', '0', '--json')).toBe(1);
    expect(JSON.parse(t.stdout().slice(t.stdout().indexOf('{')))).toEqual({
      error: 1007,
      code: 'not_found',
      message: 'no plant with id 0',
    });
    expect((await storedPlants(t.storePath)).has(0n)).toBe(false);

    const home = await tempDir();
    const server = await startServer(home);
    servers.push(server);
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    expect((await runPlants(['create', '--id', '5', '--name', 'Fern'], env)).code).toBe(0);
    expect(await runPlants(['delete', '--id', '5', '--json'], env)).toMatchObject({
      code: 0,
      stdout: '{\n  "deleted": true,\n  "id": 5\n}\n',
    });
    expect((await runPlants(['delete', '--id', '5'], env)).code).toBe(1);
    expect((await runPlants(['create', '--id', '5', '--name', 'Again'], env)).code).toBe(0);
  });

  it.each([
    [['delete'], 'give the plant with --id, or a file of them with --from (one of the two)'],
    [
      ['delete', '--id', '1', '--from', 'x'],
      'give the plant with --id, or a file of them with --from (one of the two)',
    ],
    [['delete', '--id', '1', '--on-missing', 'skip'], '--on-missing only apply with --from'],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const t = await testContext();
    expect(await t.run(...argv)).toBe(2);
    expect(t.stderr()).toContain(`error: ${message}`);
  });

  it.each([
    ['ids, one a line', (plants: NewPlant[]) => `${plants.map((plant) => plant.id).join('\n')}\n`, undefined],
    ['NDJSON, as list writes it', (plants: NewPlant[]) => `${plants.map(line).join('\n')}\n`, undefined],
    [
      'CSV, as list writes it',
      (plants: NewPlant[]) => `id,name\n${plants.map((plant) => `${plant.id},x`).join('\n')}\n`,
      undefined,
    ],
    [
      'a JSON array, told',
      (plants: NewPlant[]) => JSON.stringify(plants.map((plant) => ({ id: Number(plant.id) }))),
      'json',
    ],
  ])(
    'delete --from - deletes the ids of %s, with the import summary, --rejects and exit codes',
    async (_what, text, format) => {
      const t = await localStoreWith(Array.from({ length: 5 }, (_, i) => ({ id: BigInt(i), name: `p${i}` })));
      const doomed = [1n, 3n, 9n].map((id) => ({ id, name: 'x' }));
      const rejects = join(t.dir, 'rejects.txt');
      const stdin = await testContext({ stdin: text(doomed) });
      Object.assign(stdin.ctx, { configDir: t.ctx.configDir, dataDir: t.ctx.dataDir });
      const formatFlag = format === undefined ? [] : ['--format', format];
      const argv = ['delete', '--yes', '--local', '--from', '-', '--rejects', rejects, '--json', ...formatFlag];
      expect(await stdin.run(...argv)).toBe(1);
      const summary = JSON.parse(stdin.stdout());
      expect(summary.counts).toEqual({ read: 3, deleted: 2, skipped: 0, valid: 0, failed: 1, unknown: 0, notSent: 0 });
      expect(summary.failures).toMatchObject([{ id: 9, code: 'not_found', message: 'no plant with id 9' }]);
      // One form for every row kept, whatever the input's: what delete --from reads back (below).
      expect(await readFile(rejects, 'utf8')).toBe('{"id":9}\n');
      expect([...(await storedPlants(t.storePath)).keys()]).toEqual([0n, 2n, 4n]);
    },
  );

  it('never turns a row it refused into an id in CSV rejects: a retry deletes no plant the first did not', async () => {
    const t = await localStoreWith([
      { id: 7n, name: 'seven' },
      { id: 12n, name: 'twelve' },
    ]);
    // A bare JSON number and text that was never JSON are no NDJSON rows of ids: refused, not deleted.
    const input = join(t.dir, 'odd.ndjson');
    await writeFile(input, '12\n007\n');
    const rejects = join(t.dir, 'rejects.csv');
    expect(await t.run('delete', '--yes', '--local', '--from', input, '--rejects', rejects)).toBe(1);
    expect(await t.run('delete', '--yes', '--local', '--from', rejects, '--json'), t.stderr()).toBe(1);
    expect(summaryOf(t.stdout()).counts).toMatchObject({ read: 2, deleted: 0, failed: 2 });
    expect([...(await storedPlants(t.storePath)).keys()]).toEqual([7n, 12n]);
  });

  it.each(['r.ndjson', 'r.csv', 'r.json', 'r.jsonl', 'r.txt', 'r'])(
    'delete --from reads its --rejects %s back as they are: the same rows, the same failures, the same file',
    async (name) => {
      const t = await localStoreWith([
        { id: 1n, name: 'one' },
        { id: 3n, name: 'three' },
      ]);
      const rows = [
        '{"id":1}',
        '{"id":555}',
        '{"id":"xyz"}',
        '{"id":"12"}',
        '{"id":""}',
        '[1]',
        '"just text"',
        '{"id":1,',
        `{"id":${MAX}}`,
        `{"id":${MIN}}`,
        '{"id":1.5}',
        '{"id":9223372036854775808}',
        '{"name":"no id"}',
      ];
      const ndjson = join(t.dir, 'doomed.ndjson');
      await writeFile(ndjson, `${rows.join('\n')}\n`);
      const ids = join(t.dir, 'doomed-ids.txt');
      await writeFile(ids, '3\n77\nxyz\n99999999999999999999\n 5 \n');
      for (const input of [ndjson, ids]) {
        const first = join(t.dir, `first-${name}`);
        const again = join(t.dir, `again-${name}`);
        const before = t.stdout().length;
        expect(await t.run('delete', '--yes', '--local', '--from', input, '--rejects', first, '--json')).toBe(1);
        const summary = summaryOf(t.stdout().slice(before));
        expect(summary.rejectsWritten).toBe((summary.counts.read as number) - (summary.counts.deleted as number));
        const retried = t.stdout().length;
        const retriedCode = await t.run('delete', '--yes', '--local', '--from', first, '--rejects', again, '--json');
        expect(retriedCode, t.stderr()).toBe(1);
        const retry = summaryOf(t.stdout().slice(retried));
        // Every row kept is read back as a row, which fails again for the same reason, and is kept again the same.
        expect(retry.counts).toEqual({
          read: summary.rejectsWritten,
          deleted: 0,
          skipped: 0,
          valid: 0,
          failed: summary.rejectsWritten,
          unknown: 0,
          notSent: 0,
        });
        // But text that was never JSON: in CSV or a JSON array it can only be a cell or a string, a row that fails as
        // no id.
        const textBecomes = /\.(csv|json)$/.test(name) ? 'invalid_plant' : 'malformed_json';
        const reasons = (failures: Summary['failures'], kept: string) =>
          failures
            .map(
              ({ id, code }) =>
                `${code === 'malformed_json' ? kept : code} ${id === undefined ? '' : stringifyJson(id)}`,
            )
            .sort();
        expect(reasons(retry.failures, 'malformed_json')).toEqual(reasons(summary.failures, textBecomes));
        expect(await readFile(again, 'utf8')).toBe(await readFile(first, 'utf8'));
      }
      expect([...(await storedPlants(t.storePath)).keys()]).toEqual([]);
    },
  );

  it.each([
    ['ids after a blank first read', ['  ', '\n1\n', '3\n']],
    ['NDJSON after a blank first read', ['\n', '  {"id":1}\n{"id":3}\n']],
  ])(
    'delete --from - tells the format by its first line that is not blank, however it is read: %s',
    async (_what, chunks) => {
      const t = await localStoreWith(Array.from({ length: 5 }, (_, i) => ({ id: BigInt(i), name: `p${i}` })));
      Object.assign(t.ctx.io, { stdin: Readable.from(chunks.map((chunk) => Buffer.from(chunk))) });
      expect(await t.run('delete', '--yes', '--local', '--from', '-'), t.stderr()).toBe(0);
      expect([...(await storedPlants(t.storePath)).keys()]).toEqual([0n, 2n, 4n]);
    },
  );

  it('delete --from sums up in ids as --json counts them, saying how many of those failed were not found', async () => {
    const t = await localStoreWith(Array.from({ length: 5 }, (_, i) => ({ id: BigInt(i), name: `p${i}` })));
    const ids = join(t.dir, 'ids.txt');
    await writeFile(ids, '0\n1\n2\n3\n55\n66\nxyz\n');
    const rejects = join(t.dir, 'rejects.ndjson');
    const before = t.stderr().length;
    expect(await t.run('delete', '--yes', '--local', '--from', ids, '--rejects', rejects)).toBe(1);
    const summary = t.stderr().slice(before).split('\n');
    expect(summary[0]).toMatch(
      new RegExp(
        `^Read 7 ids from ${ids.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} to delete from ` +
          `${t.storePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in [\\d.]+s \\([\\d,]+ ids/s\\): 4 deleted, 0 ` +
          'skipped, 3 failed \\(2 not found\\)$',
      ),
    );
    expect(summary).toContain(
      `3 ids not deleted were written to ${rejects}: fix them, then plants delete --from ${rejects}`,
    );
    const one = join(t.dir, 'one.txt');
    await writeFile(one, '4\n');
    expect(await t.run('delete', '--local', '--from', one, '--dry-run')).toBe(0);
    expect(t.stderr()).toMatch(/\nChecked 1 id from .* for .* \([\d,]+ ids\/s\): 1 valid, 0 invalid\n$/);
  });

  it('delete --from --on-missing skip counts ids not there as gone already (exit 0); on a service too', async () => {
    const home = await tempDir();
    const server = await startServer(home);
    servers.push(server);
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    for (const id of [1, 2, 3])
      expect((await runPlants(['create', '--id', String(id), '--name', 'p'], env)).code).toBe(0);
    const ids = join(home, 'ids.txt');
    await writeFile(ids, '1\n3\n4\n');
    const result = await runPlants(['delete', '--yes', '--from', ids, '--on-missing', 'skip'], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      pattern(
        /^Read 3 ids from .* to delete from http:\/\/127\.0\.0\.1:\d+ in [\d.]+s \([\d,]+ ids\/s\): /,
        /2 deleted, 1 skipped \(not there\), 0 failed\n$/,
      ),
    );
    const left = await runPlants(['list', '--format', 'ndjson'], env);
    expect(left.stdout).toBe('{"id":2,"name":"p"}\n');
  });
});
