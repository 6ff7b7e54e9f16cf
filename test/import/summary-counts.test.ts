import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { testContext } from '../helpers/test-context.js';

let fake: FakeService | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const ndjson = (count: number) =>
  Array.from({ length: count }, (_, i) => `{"id":${i + 1},"name":"plant ${i + 1}"}\n`).join('');

describe('the summary of an import that stopped part way: what was sent, and its rate', () => {
  it(
    'counts and rates only the rows sent: `Sent 2 of 10 rows`, at 2 rows over the time taken, as --report counts ' +
      'them',
    async () => {
      fake = await fakeService();
      // Two rows created, then a refused token: the other eight are never sent.
      fake.answer((request) =>
        fake!.requests.length <= 2
          ? { status: 200, body: request.body }
          : { status: 401, body: '{"error":1006,"message":"no"}' },
      );
      const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
      const input = join(t.dir, 'p.ndjson');
      const report = join(t.dir, 'report.json');
      await writeFile(input, ndjson(10));
      expect(await t.run('import', input, '--concurrency', '1', '--report', report)).toBe(3);
      const { counts, elapsedMs } = JSON.parse(await readFile(report, 'utf8'));
      expect(counts).toMatchObject({ read: 10, created: 2, failed: 0, unknown: 0, notSent: 8 });
      const summary =
        /^Sent 2 of 10 rows to \S+ in [\d.]+s \(([\d,]+) rows\/s\): 2 created, 0 skipped, 0 failed, 8 not sent$/m.exec(
          t.stderr(),
        );
      expect(summary, t.stderr()).not.toBeNull();
      expect(Number(summary![1]!.replaceAll(',', ''))).toBe(Math.round(2 / Math.max(elapsedMs / 1000, 0.001)));
    },
  );

  it('gives no rate where no row was sent: `Sent none of 3 rows`', async () => {
    fake = await fakeService();
    fake.answer({ status: 401, body: '{"error":1006,"message":"no"}' });
    const t = await testContext({ env: { PLANTS_BASE_URL: fake.url, PLANTS_TOKEN: 'tok' } });
    const input = join(t.dir, 'p.ndjson');
    await writeFile(input, ndjson(3));
    expect(await t.run('import', input, '--concurrency', '1')).toBe(3);
    expect(t.stderr()).toMatch(/^Sent none of 3 rows to \S+ in [\d.]+s: 0 created, 0 skipped, 0 failed, 3 not sent$/m);
  });
});
