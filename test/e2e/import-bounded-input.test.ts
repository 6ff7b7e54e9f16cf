import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, exited, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

// The bound on a row's memory, seen from the command, process by process; each reader in-process:
// test/import/bounded-input.test.ts.
describe('plants import: input is bounded', () => {
  it.each(['ndjson', 'csv', 'json'] as const)(
    'import /dev/zero --format %s ends at once with exit 2: not text',
    async (format) => {
      const home = await tempDir();
      const started = Date.now();
      const result = await runPlants(
        ['import', '/dev/zero', '--format', format, '--local'],
        isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') }),
      );
      expect(result.stderr).toBe(
        'error: /dev/zero: not text: a NUL byte at byte 0 (a binary file, or text in UTF-16?)\n',
      );
      expect(result.code).toBe(2);
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );

  it('a 64 MB line takes seconds and little memory, not minutes and gigabytes (a 48 MB heap)', async () => {
    const home = await tempDir();
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=48', BIN, 'import', '-', '--format', 'ndjson', '--local', '--json'],
      {
        env: isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') }),
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const result = exited(child);
    const megabyte = Buffer.alloc(1024 * 1024, 'x');
    child.stdin?.write('{"id":1,"name":"');
    for (let i = 0; i < 64; i += 1)
      if (!child.stdin?.write(megabyte)) await new Promise((drained) => child.stdin?.once('drain', drained));
    child.stdin?.end('"}\n{"id":2,"name":"Fern"}\n');
    const { code, stdout } = await result;
    expect(code).toBe(1);
    const summary = JSON.parse(stdout);
    expect(summary.counts).toMatchObject({ read: 2, created: 1, failed: 1 });
    expect(summary.failures).toEqual([
      {
        line: 1,
        code: 'payload_too_large',
        error: 1005,
        message: 'the row is over 65,536 bytes, the most a row may be',
      },
    ]);
  });
});
