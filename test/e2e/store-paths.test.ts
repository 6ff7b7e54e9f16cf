import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { canMount, smallFileSystem } from '../helpers/small-fs.js';
import { tempDir } from '../helpers/temp.js';
import { storedPlants } from '../helpers/stored-plants.js';

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  servers = [];
});

describe('the store path: a regular file or nothing yet', () => {
  it.runIf(process.platform === 'linux')(
    'refuses a FIFO at once (exit 4), where reading it would hang past every signal',
    async () => {
      const home = await tempDir();
      const fifo = join(home, 'plants.json');
      execFileSync('mkfifo', [fifo]);
      for (const argv of [
        ['create', '--local', '--store', fifo, '--id', '1', '--name', 'Fern'],
        ['serve', '--port', '0', '--token', 'server-token-123456', '--store', fifo],
      ]) {
        const started = Date.now();
        const result = await runPlants(argv, isolatedEnv(home));
        expect(result.stderr).toBe(
          `error: ${fifo} is a FIFO, not a store file; nothing was read or written\nhint: point --store (or ` +
            'PLANTS_STORE) at a regular file, or at a path where none exists yet\n',
        );
        expect(result.code).toBe(4);
        expect(Date.now() - started).toBeLessThan(10_000);
      }
    },
  );

  it.runIf(process.platform === 'linux')(
    'a FIFO where the journal goes is named, to be moved (exit 4), not the store path',
    async () => {
      const home = await tempDir();
      const store = join(home, 'plants.json');
      execFileSync('mkfifo', [`${store}.journal`]);
      const started = Date.now();
      const result = await runPlants(
        ['create', '--local', '--store', store, '--id', '1', '--name', 'Fern'],
        isolatedEnv(home),
      );
      expect(result.stderr).toBe(
        `error: ${store}.journal is a FIFO, not a store's journal; nothing was read or written\n` +
          'hint: plants keeps the journal of the store at that path: rename or remove what is there, then try again\n',
      );
      expect(result.code).toBe(4);
      expect(Date.now() - started).toBeLessThan(10_000);
    },
  );

  it(
    "follows a dangling symlink and creates the store at its target (and the target's directory), never " +
      'replacing the link',
    async () => {
      const home = await tempDir();
      const link = join(home, 'plants.json');
      const target = join(home, 'elsewhere', 'deeper', 'real.json');
      symlinkSync('elsewhere/deeper/real.json', link);
      const result = await runPlants(
        ['create', '--local', '--store', link, '--id', '1', '--name', 'Fern'],
        isolatedEnv(home),
      );
      expect(result.code).toBe(0);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(link)).toBe('elsewhere/deeper/real.json');
      expect([...(await storedPlants(target)).keys()]).toEqual([1n]);
      // Through the link or to the file: one store, one lock.
      expect(
        (await runPlants(['create', '--local', '--store', target, '--id', '1', '--name', 'Again'], isolatedEnv(home)))
          .code,
      ).toBe(1);
    },
  );

  it.runIf(canMount)(
    'plants serve on a read-only store serves 503 for creates and, having written nothing, stops with exit 0',
    async () => {
      const dir = smallFileSystem(1024 * 1024);
      const store = join(dir, 'plants.json');
      writeFileSync(store, encodeDatabase([{ id: 1n, name: 'Fern' }]));
      execFileSync('mount', ['-o', 'remount,ro', dir]);
      const server = await startServer(await tempDir(), ['--store', store]);
      servers.push(server);
      const answer = await fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        body: '{"id":2,"name":"Oak"}',
      });
      expect(answer.status).toBe(503);
      expect(await server.stop('SIGTERM')).toBe(0);
      expect(server.log()).toMatch(
        /error: could not make the lock .* \(EROFS\) \(request-id=[\w-]+\)\n[^]*plants serve: stopped\n$/,
      );
      expect(existsSync(`${store}.journal`)).toBe(false);
    },
  );
});
