import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PLANT_ROWS } from '../../src/import/plant-rows.js';
import { readRows } from '../../src/import/rows.js';
import type { Format } from '../../src/import/formats.js';
import { testContext } from '../helpers/test-context.js';

const LIMIT = 64 * 1024;

async function rowsOf(format: Format, chunks: (string | Buffer)[]) {
  const rows = [];
  for await (const run of readRows(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), format, PLANT_ROWS))
    rows.push(...run);
  return rows;
}

describe('import input is bounded: no row takes more than 64 KiB of memory', () => {
  it.each([
    ['ndjson', (body: string) => `{"id":1,"name":"${body}"}\n{"id":2,"name":"Fern"}\n`],
    ['csv', (body: string) => `id,name\n1,"${body}"\n2,Fern\n`],
    ['json', (body: string) => `[{"id":1,"name":"${body}"},\n{"id":2,"name":"Fern"}]`],
  ] as const)('a %s row over the limit is one failed row, and the rows after it are read', async (format, input) => {
    const text = input('x'.repeat(LIMIT));
    // In small chunks, as a pipe gives them: the row is cut across many.
    const chunks = text.match(/[^]{1,10000}/g) as string[];
    const rows = await rowsOf(format, chunks);
    expect(rows.map((row) => (row.error === undefined ? row.value.name : row.error.message))).toEqual([
      'the row is over 65,536 bytes, the most a row may be',
      'Fern',
    ]);
    expect(rows[0]?.error?.code).toBe('payload_too_large');
    expect(rows[1]?.at).toEqual(format === 'json' ? { index: 1 } : { line: format === 'csv' ? 3 : 2 });
  });

  it('a row of exactly the limit is read (and judged by the schema, not by its size)', async () => {
    const line = `{"id":1,"name":"${'x'.repeat(LIMIT - 18)}"}`;
    expect(Buffer.byteLength(line)).toBe(LIMIT);
    const [row] = await rowsOf('ndjson', [line.slice(0, 30_000), `${line.slice(30_000)}\n`]);
    expect(row?.error?.code).not.toBe('payload_too_large');
    expect(row?.at).toEqual({ line: 1 });
  });

  it('reads a JSON array element by element, also across chunks, with elements as the rows', async () => {
    const text = '\uFEFF[ {"id":1,"name":"a, [b]"} ,{"id":2,"name":"c\\"]"},\n\n{"id":3, "name":"d", "tag": "{"} ]\n';
    for (const size of [1, 3, 7, text.length]) {
      const chunks = text.match(new RegExp(`[^]{1,${size}}`, 'gu')) as string[];
      const rows = await rowsOf('json', chunks);
      expect(rows.map((row) => row.value?.name)).toEqual(['a, [b]', 'c"]', 'd']);
      expect(rows.map((row) => row.at)).toEqual([{ index: 0 }, { index: 1 }, { index: 2 }]);
    }
    expect(await rowsOf('json', ['[ ]'])).toEqual([]);
  });

  it.each([
    ['{"id":1}', 'a JSON input must be an array of plants: use NDJSON for one plant per line'],
    ['[{"id":1,"name":"a"}', 'not valid JSON: the array is never closed'],
    ['[{"id":1,"name":"a"},]', 'not valid JSON: a comma before the closing bracket on line 1'],
    ['[] []', 'not valid JSON: there is more after the end of the array'],
    ['  ', 'the JSON input is empty: expected an array of plants'],
  ])('refuses a JSON input that is no array of plants: %j', async (text, message) => {
    await expect(rowsOf('json', [text])).rejects.toMatchObject({ code: 'unreadable_input', message });
  });

  it.each([
    ['[{"id":1,"name":"a"},{"id":2,"name":"b"}', ['a', 'b']],
    ['[{"id":1,"name":"a"},\n {"id":2,"name":"b"}  \n', ['a', 'b']],
    ['[{"id":1,"name":"a"},{"id":2,"na', ['a']],
    ['[{"id":1,"name":"a"},{"id":2,"name":"b"', ['a']],
    ['[{"id":1,"name":"a"},', ['a']],
  ])(
    'a JSON array never closed (%j): every whole element a row, the last one too, then the error',
    async (text, expected) => {
      for (const size of [1, 5, text.length]) {
        const chunks = text.match(new RegExp(`[^]{1,${size}}`, 'gu')) as string[];
        const rows: Awaited<ReturnType<typeof rowsOf>> = [];
        const reading = (async () => {
          for await (const run of readRows(
            Readable.from(chunks.map((chunk) => Buffer.from(chunk))),
            'json',
            PLANT_ROWS,
          ))
            rows.push(...run);
        })();
        await expect(reading).rejects.toMatchObject({
          code: 'unreadable_input',
          message: 'not valid JSON: the array is never closed',
        });
        expect(rows.map((row) => row.error?.code ?? row.value?.name)).toEqual(expected);
        expect(rows.map((row) => row.at)).toEqual(expected.map((_, index) => ({ index })));
      }
    },
  );

  it('plants import of a JSON array never closed imports its last whole element too, then stops (exit 2)', async () => {
    const t = await testContext();
    const input = join(t.dir, 'p.json');
    await writeFile(input, '[{"id":1,"name":"a"},{"id":2,"name":"b"}');
    expect(await t.run('import', input, '--local', '--json')).toBe(2);
    const summary = JSON.parse(t.stdout());
    expect(summary.counts).toMatchObject({ read: 2, created: 2, failed: 0 });
    expect(summary.stoppedBy).toMatchObject({
      code: 'unreadable_input',
      message: `${input}: not valid JSON: the array is never closed`,
    });
  });

  it('a malformed element of a JSON array is a failed row, and the import goes on', async () => {
    const rows = await rowsOf('json', ['[{"id":1,"name":}, {"id":2,"name":"b"}]']);
    expect(rows.map((row) => row.error?.code ?? row.value?.name)).toEqual(['malformed_json', 'b']);
  });

  it('leaves a row over the limit out of --rejects, and says how many rows went there', async () => {
    const t = await testContext();
    const input = join(t.dir, 'p.ndjson');
    await writeFile(input, `{"id":1,"name":"${'x'.repeat(LIMIT)}"}\n{"id":2}\n`);
    const rejects = join(t.dir, 'rejects.ndjson');
    expect(await t.run('import', input, '--local', '--rejects', rejects)).toBe(1);
    expect(t.stderr()).toContain(`\n1 row not created was written to ${rejects}`);
  });
});
