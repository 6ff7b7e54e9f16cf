import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext, type TestContext } from '../helpers/test-context.js';

/** The lines the failures of a summary name, as the text, --json and --report list them. */
async function failedLines(t: TestContext, argv: string[]): Promise<Record<'text' | 'json' | 'report', number[]>> {
  const report = join(t.dir, 'report.json');
  const before = t.stderr().length;
  expect(await t.run(...argv, '--report', report)).toBe(1);
  const text = [
    ...t
      .stderr()
      .slice(before)
      .matchAll(/^ {2}line (\d+)/gm),
  ].map((match) => Number(match[1]));
  const out = t.stdout().length;
  expect(await t.run(...argv, '--json')).toBe(1);
  const lines = (document: { failures: { line: number }[] }) => document.failures.map((failure) => failure.line);
  const json = lines(JSON.parse(t.stdout().slice(out)));
  return { text, json, report: lines(JSON.parse(await readFile(report, 'utf8'))) };
}

describe('bulk work lists its failures in line order (issue 40)', () => {
  it('import --local: a duplicate, counted with its batch, before an invalid row read after it', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--id', '1', '--name', 'Fern')).toBe(0);
    const input = join(t.dir, 'p.ndjson');
    const rows = ['{"id":1,"name":"Fern again"}', '{"id":2,"name":5}', '{"id":1,"name":"and again"}', 'not json'];
    await writeFile(input, `${rows.join('\n')}\n`);
    const lines = await failedLines(t, ['import', input, '--local']);
    expect(lines).toEqual({ text: [1, 2, 3, 4], json: [1, 2, 3, 4], report: [1, 2, 3, 4] });
  });

  it('delete --from --local: an id not there before an invalid one read after it', async () => {
    const t = await testContext();
    const input = join(t.dir, 'ids.txt');
    await writeFile(input, '9\nxyz\n8\n');
    const lines = await failedLines(t, ['delete', '--local', '--from', input, '--yes']);
    expect(lines).toEqual({ text: [1, 2, 3], json: [1, 2, 3], report: [1, 2, 3] });
  });

  it('delete --from on a service: answers that come out of order', async () => {
    // The answer for id 1 waits for those of 2, 3 and 4: with the four in flight, 1 is answered
    // last (each run: --report, then --json).
    const held: ServerResponse[] = [];
    let answered = 0;
    const notFound = (res: ServerResponse, id: string) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end(`{"error":1007,"message":"no plant ${id}"}`);
    const server = createServer((req, res) => {
      const id = (req.url ?? '').split('/').at(-1) as string;
      console.log('REQ', req.method, req.url, held.length, answered);
      req.resume();
      if (id === '1') held.push(res);
      else {
        if (id === '3') res.writeHead(204).end();
        else notFound(res, id);
        answered += 1;
      }
      if (answered === 3) {
        answered = 0;
        for (const waiting of held.splice(0)) notFound(waiting, '1');
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const t = await testContext({ env: { PLANTS_BASE_URL: url, PLANTS_TOKEN: 'tok' } });
      const input = join(t.dir, 'ids.txt');
      await writeFile(input, '1\n2\n3\n4\n');
      const lines = await failedLines(t, ['delete', '--from', input, '--concurrency', '4', '--yes']);
      expect(lines).toEqual({ text: [1, 2, 4], json: [1, 2, 4], report: [1, 2, 4] });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
