import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, exited, isolatedEnv } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

const REJECTED = '{"id":1,"name":"Fern"}\n{"id":2,"name":"Ivy"}\n';

describe('plants import --rejects/--report never empty the file on standard input', () => {
  it.each(['rejected.ndjson', '/dev/stdin', '/proc/self/fd/0'])(
    '--rejects %s with rejected.ndjson on stdin: usage error, nothing read, file kept',
    async (name) => {
      const home = await tempDir();
      const file = join(home, 'rejected.ndjson');
      writeFileSync(file, REJECTED);
      const output = name.startsWith('/') ? name : file;
      for (const flag of ['--rejects', '--report']) {
        const stdin = openSync(file, 'r');
        const child = spawn(process.execPath, [BIN, 'import', '-', '--format', 'ndjson', '--local', flag, output], {
          env: isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') }),
          stdio: [stdin, 'pipe', 'pipe'],
        });
        closeSync(stdin);
        const result = await exited(child);
        expect(result.stderr).toBe(
          `error: ${flag} ${output} is standard input: writing it would destroy it\nhint: name another file\n`,
        );
        expect(result.code).toBe(2);
        expect(readFileSync(file, 'utf8')).toBe(REJECTED);
      }
    },
  );
});
