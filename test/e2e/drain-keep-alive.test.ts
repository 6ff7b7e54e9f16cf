import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { startServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';

const ROWS = 20_000;
const ndjson = (count: number) =>
  Array.from({ length: count }, (_, i) => `{"id":${i + 1},"name":"plant ${i + 1}"}\n`).join('');

describe('plants serve drained during a keep-alive import', () => {
  it(
    'answers every request it read: restarted on its port three times, the import creates every row once, none ' +
      'unknown (exit 0)',
    async () => {
      const home = await tempDir();
      const input = join(home, 'rows.ndjson');
      await writeFile(input, ndjson(ROWS));
      let server = await startServer(home);
      try {
        const port = new URL(server.url).port;
        const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
        // 16 requests in flight on as many kept-alive connections, one after another on each.
        const importing = runPlants(['import', input, '--concurrency', '16', '--json'], env);
        // Rolling restarts: each server stops gracefully, the next listens where it did. Each
        // request the one stopping read is answered; one it never read is refused, and sent again.
        for (const stored of [2_000, 6_000, 10_000]) {
          const current = server;
          await waitFor(`${stored} rows stored`, async () => (await storedPlants(current.store)).size >= stored);
          expect(await current.stop('SIGTERM')).toBe(0);
          server = await startServer(home, ['--port', port]);
        }
        const { code, stdout, stderr } = await importing;
        const summary = JSON.parse(stdout);
        expect({ code, counts: summary.counts, stderr }).toEqual({
          code: 0,
          counts: { read: ROWS, created: ROWS, skipped: 0, valid: 0, failed: 0, unknown: 0, notSent: 0 },
          stderr: '',
        });
        expect((await storedPlants(server.store)).size).toBe(ROWS);
      } finally {
        await server.stop('SIGKILL');
      }
    },
    90_000,
  );
});
