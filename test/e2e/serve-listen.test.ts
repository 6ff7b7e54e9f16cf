import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { isolatedEnv, runPlantsWithin } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';
import { testContext } from '../helpers/test-context.js';
import { waitFor } from '../helpers/wait-for.js';
import { pattern } from '../helpers/pattern.js';

const TOKEN = 'a-token-of-twenty-chars';
const EMFILE = () =>
  Object.assign(new Error('EMFILE: too many open files, open'), { code: 'EMFILE', errno: -24, syscall: 'open' });

describe('plants serve where it cannot listen (issue 25, item 8)', () => {
  it('says a busy port in words, with the way out, exit 2', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const { port } = busy.address() as AddressInfo;
    try {
      const home = await tempDir();
      const result = await runPlantsWithin(
        15_000,
        ['serve', '--port', String(port), '--store', join(home, 'p.json'), '--token', 'a-token-of-twenty-chars'],
        isolatedEnv(home),
      );
      expect(result).toMatchObject({
        code: 2,
        stdout: '',
        stderr:
          `error: cannot listen on 127.0.0.1:${port}: the port is in use: another process listens there ` +
          '(EADDRINUSE)\nhint: --port 0 picks a free port (the first line printed says which)\n',
      });
    } finally {
      busy.close();
    }
  });

  it('says a host that is none in words, exit 2', async () => {
    const home = await tempDir();
    const result = await runPlantsWithin(
      15_000,
      [
        'serve',
        '--host',
        'nosuchhost.invalid',
        '--port',
        '0',
        '--store',
        join(home, 'p.json'),
        '--token',
        'a-token-of-twenty-chars',
      ],
      isolatedEnv(home),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      pattern(
        /^error: cannot listen on nosuchhost\.invalid:0: /,
        /(no such host \(ENOTFOUND\)|the host name could not be looked up \(EAI_AGAIN\))\n/,
        /hint: give --host an address of this machine/,
      ),
    );
  });

  it('refuses to start, exit 2, where it cannot open its store for want of descriptors', async () => {
    const home = await tempDir();
    const store = join(home, 'p.json');
    expect(await (await testContext()).run('create', '--local', '--store', store, '--id', '1', '--name', 'Fern')).toBe(
      0,
    );
    const fs: FileSystem = {
      ...NODE_FS,
      openSync: ((path: string, ...rest: never[]) => {
        if (String(path).startsWith(store)) throw EMFILE();
        return (NODE_FS.openSync as (...args: unknown[]) => number)(path, ...rest);
      }) as FileSystem['openSync'],
    };
    const t = await testContext({ fs });
    expect(await t.run('serve', '--port', '0', '--store', store, '--token', TOKEN)).toBe(2);
    expect(t.stdout()).toBe('');
    expect(t.stderr()).toBe(
      'error: cannot open the store: too many open files (EMFILE)\nhint: raise the limit of open files (ulimit ' +
        '-n; LimitNOFILE= under systemd)\n',
    );
  });

  it('refuses to start, exit 2, where the limit of open files leaves no room for a connection', async () => {
    const t = await testContext();
    t.ctx.openFiles = () => ({ limit: 40, open: 30 });
    expect(
      await t.run('serve', '--port', '0', '--store', join(t.dir, 'p.json'), '--token', TOKEN, '--admin-port', '0'),
    ).toBe(2);
    expect(t.stdout()).toBe('');
    expect(t.stderr()).toBe(
      'error: the limit of open files (ulimit -n 40) leaves no room for a connection: 30 are open, and the ' +
        'store and node keep 8 more, the admin listener 4\n' +
        'hint: raise the limit of open files (ulimit -n; LimitNOFILE= under systemd): to 43 or more\n',
    );
  });

  it('takes as many connections as the limit of open files leaves room for, and says so', async () => {
    const t = await testContext();
    t.ctx.openFiles = () => ({ limit: 64, open: 20 });
    const running = t.run('serve', '--port', '0', '--store', join(t.dir, 'p.json'), '--token', TOKEN);
    await waitFor('the base URL', () => t.stdout() !== '');
    // 64, less 20 open, 6 for the file store and 2 for node.
    expect(t.stderr()).toContain(
      'plants serve: at most 36 connections: the limit of open files (ulimit -n 64) leaves room for no more\n',
    );
    t.stop('SIGTERM');
    expect(await running).toBe(0);
  });
});
