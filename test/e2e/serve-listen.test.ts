import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runPlantsWithin } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

describe('plants serve where it cannot listen (issue 25, item 8)', () => {
  it('says a busy port in words, with the way out, exit 2', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const { port } = busy.address() as AddressInfo;
    try {
      const home = await tempDir();
      const result = await runPlantsWithin(15_000, ['serve', '--port', String(port), '--store', join(home, 'p.json'), '--token', 'a-token-of-twenty-chars'], isolatedEnv(home));
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `error: cannot listen on 127.0.0.1:${port}: the port is in use: another process listens there (EADDRINUSE)\nhint: --port 0 picks a free port (the first line printed says which)\n`,
      });
    } finally {
      busy.close();
    }
  });

  it('says a host that is none in words, exit 2', async () => {
    const home = await tempDir();
    const result = await runPlantsWithin(15_000, ['serve', '--host', 'nosuchhost.invalid', '--port', '0', '--store', join(home, 'p.json'), '--token', 'a-token-of-twenty-chars'], isolatedEnv(home));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: cannot listen on nosuchhost\.invalid:0: (no such host \(ENOTFOUND\)|the host name could not be looked up \(EAI_AGAIN\))\nhint: give --host an address of this machine/);
  });
});
