import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runPlantsWithin } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

/** A port on this machine where nothing listens: one that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('an import to a service that refuses its first connections (issue 25, item 1)', () => {
  it('stops at once, saying nothing was sent: no summary that begins "Imported" (exit 4)', async () => {
    const home = await tempDir();
    const input = join(home, 'plants.ndjson');
    await writeFile(input, '{"id":1,"name":"A"}\n{"id":2,"name":"B"}\n{"id":3,"name":"C"}\n');
    const url = `http://127.0.0.1:${await freePort()}`;
    // Bounded well above the second it takes (the retries of a refused first connection took 9 s before).
    const result = await runPlantsWithin(
      8_000,
      ['import', input, '--base-url', url, '--token', 'a-token-of-twenty-chars'],
      isolatedEnv(home),
    );
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      new RegExp(
        `^Sent none of 3 rows to ${url} in [\\d.]+s: 0 created, 0 skipped, 0 failed, 3 not sent\\nerror: ` +
          `stopped: could not connect to ${url}/plants: connection refused\\n`,
      ),
    );
  });
});
