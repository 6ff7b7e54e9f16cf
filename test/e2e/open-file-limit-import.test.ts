import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS } from '../../src/core/errors.js';
import { BIN, finished, isolatedEnv, startPlantsLimited } from '../helpers/cli-process.js';
import { fakeProxy } from '../helpers/fake-proxy.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { pattern } from '../helpers/pattern.js';

// plants import --concurrency 256 in a process allowed fewer descriptors than that (ulimit -n),
// against a real plants serve that has all it wants: a limit of this process is named as its own,
// a row is counted as unknown only if its request was sent, and no limit is ever exit 70.

describe('plants import under a low limit of open files (ulimit -n)', () => {
  let home: string;
  let input: string;
  let server: RunningServer;
  let firstId = 0;
  // A server per test: its store is in the test's temporary directory.
  beforeEach(async () => {
    home = await tempDir();
    input = join(home, 'plants.ndjson');
    server = await startServer(home);
  });
  afterEach(async () => {
    await server.stop();
  });

  /** Imports `rows` new plants with --concurrency 256 under the limit; the --json document, when there is one. */
  async function importUnder(openFiles: number, rows: number, env: Record<string, string> = {}) {
    const from = firstId;
    firstId += rows;
    await writeFile(
      input,
      Array.from({ length: rows }, (_, i) => `{"id":${from + i},"name":"plant ${from + i}"}\n`).join(''),
    );
    const result = await finished(
      startPlantsLimited(
        openFiles,
        ['import', input, '--base-url', server.url, '--concurrency', '256', '--json'],
        isolatedEnv(home, { PLANTS_TOKEN: server.token, ...env }),
      ),
    );
    let document: ImportDocument | undefined;
    try {
      document = JSON.parse(result.stdout) as ImportDocument;
    } catch {
      document = undefined;
    }
    const stored = await storedPlants(server.store);
    const created = Array.from({ length: rows }, (_, i) => BigInt(from + i)).filter((id) => stored.has(id)).length;
    return { ...result, said: `${result.stderr}${result.stdout}`, document, created };
  }

  it('goes on with the connections it could open, says so, and imports every row', async () => {
    const result = await importUnder(64, 300);
    expect(result.stderr).toMatch(
      pattern(
        /^plants: too many open files \(ulimit -n\): going on with \d+ connections, not 256; /,
        /lower --concurrency or raise ulimit -n$/m,
      ),
    );
    expect(result.code).toBe(0);
    expect(result.document?.counts).toMatchObject({ read: 300, created: 300, unknown: 0, notSent: 0 });
    expect(result.created).toBe(300);
  });

  it(
    'at any limit, names the local limit, imports every row or counts no row as sent that was not, and is never ' +
      'exit 70',
    async () => {
      const outcomes: string[] = [];
      for (const openFiles of [16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 30, 40, 48]) {
        const result = await importUnder(openFiles, 60);
        const about = `ulimit -n ${openFiles}: exit ${result.code ?? result.signal}, ${result.said.slice(0, 2000)}`;
        // Below some limit node itself cannot start: no code of ours ran.
        if (
          result.signal !== null ||
          result.stderr.includes(`open '${BIN}'`) ||
          (result.code === 134 && result.stderr.includes('uv_loop_init'))
        ) {
          expect(outcomes, about).toEqual([]);
          continue;
        }
        expect(result.said, about).not.toMatch(/internal error|could not reach/);
        if (result.code === 0) {
          expect(result.document?.counts, about).toMatchObject({ created: 60, unknown: 0, notSent: 0 });
          expect(result.stderr, about).toMatch(/going on with \d+ connections, not 256/);
          outcomes.push('went on');
          continue;
        }
        // Stopped before the first row: a module it loads on demand could not be opened.
        expect(result.code, about).toBe(4);
        expect(result.document, about).toMatchObject({
          code: 'local_limit',
          error: ERROR_NUMBERS.local_limit,
          message: expect.stringMatching(
            /^too many open files \(EMFILE\): raise the limit of open files \(ulimit -n\)/,
          ),
        });
        expect(result.created, about).toBe(0);
        outcomes.push('could not start');
      }
      // From the lowest limit our code runs at: it cannot start, then it goes on.
      expect(outcomes[0]).toBe('could not start');
      expect(outcomes.at(-1)).toBe('went on');
      expect(outcomes.join(' ')).toMatch(/^(could not start )+(went on ?)+$/);
    },
  );

  it('through a proxy too (a tunnel a connection), goes on with the connections it could open', async () => {
    const proxy = await fakeProxy();
    try {
      const result = await importUnder(64, 300, { HTTP_PROXY: proxy.url });
      expect(result.stderr).toMatch(/^plants: too many open files \(ulimit -n\): going on with \d+ connections/m);
      expect(result.code).toBe(0);
      expect(result.document?.counts).toMatchObject({ read: 300, created: 300, unknown: 0, notSent: 0 });
      expect(result.created).toBe(300);
      expect(proxy.tunnels.length).toBeLessThan(256);
    } finally {
      await proxy.close();
    }
  });
});

interface ImportDocument {
  counts?: Record<string, number>;
  stoppedBy?: { code: string; error: number; message: string };
  code?: string;
  error?: number;
  message?: string;
}
