import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants, runPlantsWithin, startPlants, finished } from '../helpers/cli-process.js';
import { fakeProxy } from '../helpers/fake-proxy.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { servedDataDir, startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { onTerminal } from '../helpers/terminal.js';
import { waitFor } from '../helpers/wait-for.js';

const SECRET = 'S3CRET-token-0123456789';

function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
}

let servers: RunningServer[] = [];
let services: FakeService[] = [];
let proxies: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all([
    ...servers.map((server) => server.stop('SIGKILL')),
    ...services.map((service) => service.close()),
    ...proxies.map((proxy) => proxy.close()),
  ]);
  servers = [];
  services = [];
  proxies = [];
});

describe.runIf(process.platform === 'linux')('a --token never shows in the process title', () => {
  it('plants serve --token: ps shows "plants serve"', async () => {
    const server = await startServer(await tempDir(), ['--token', SECRET]);
    servers.push(server);
    expect(commandLine(server.child.pid as number)).toBe('plants serve');
  });

  it('plants --no-color serve --token: "plants serve" too, the command past the program\'s flags', async () => {
    const server = await startServer(await tempDir(), ['--token', SECRET], {}, { programFlags: ['--no-color'] });
    servers.push(server);
    expect(commandLine(server.child.pid as number)).toBe('plants serve');
  });

  it('plants create --token, while it waits for its answer: "plants create"', async () => {
    const service = await fakeService();
    services.push(service);
    service.answer({ status: 200, body: '{"name":"Fern"}', delayMs: 1_000 });
    const child = startPlants(
      ['create', '--id', '1', '--name', 'Fern', '--base-url', service.url, '--token', SECRET],
      isolatedEnv(await tempDir()),
    );
    const result = finished(child);
    await waitFor('the request', () => service.requests.length === 1);
    expect(commandLine(child.pid as number)).toBe('plants create');
    expect((await result).code).toBe(0);
  });
});

describe.runIf(process.platform === 'linux')('plants login on a terminal', () => {
  it('asks for the token without echoing it, and saves it', async () => {
    const home = await tempDir();
    const output = await onTerminal(
      `${process.execPath} ${BIN} login --no-check --base-url https://plants.example.com`,
      isolatedEnv(home, { NO_COLOR: '1' }),
      {
        after: 'input hidden',
        keys: `${SECRET}x\u007f\r`,
      },
    );
    expect(output).toContain('Token for https://plants.example.com (input hidden): ');
    expect(output).toContain('Logged in to https://plants.example.com');
    expect(output).not.toContain(SECRET.slice(0, 8));
    const saved = JSON.parse(readFileSync(join(home, 'config/config.json'), 'utf8'));
    expect(saved.services['https://plants.example.com'].token).toBe(SECRET);
  });
});

describe('the token a local plants serve keeps, and plants login with no token flag', () => {
  it(
    'is sent to no other listener on this machine: not on another port, nor on the port of a serve that was ' +
      'killed',
    async () => {
      const home = await tempDir();
      const server = await startServer(home, [], {}, { keptToken: true });
      servers.push(server);
      // Any process may listen on a loopback port: another user's, on a shared machine.
      const other = await fakeService();
      services.push(other);
      const env = isolatedEnv(home);
      const login = await runPlants(['login', '--base-url', other.url], env);
      expect(login.code).toBe(2);
      expect(login.stderr).toContain('error: no token given, and standard input is not a terminal to ask on');
      expect(other.requests).toEqual([]);

      // Killed, the serve leaves its record behind; whoever listens on its port next gets nothing.
      const { port } = new URL(server.url);
      await server.stop('SIGKILL');
      const squatter = await fakeService(Number(port));
      services.push(squatter);
      const again = await runPlants(['login', '--base-url', server.url], env);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('error: no token given, and standard input is not a terminal to ask on');
      expect(squatter.requests).toEqual([]);
      expect(login.stdout + login.stderr + again.stdout + again.stderr).not.toContain(server.token);
    },
  );

  it('is found for a serve started as plants --no-color serve, whose record then stays', async () => {
    const home = await tempDir();
    const server = await startServer(home, [], {}, { keptToken: true, programFlags: ['--no-color'] });
    servers.push(server);
    const record = join(servedDataDir(home), 'serving', `${server.child.pid}-${new URL(server.url).port}.json`);
    const login = await runPlants(['login', '--base-url', server.url, '--json'], isolatedEnv(home));
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ baseUrl: server.url, source: 'local server' });
    // Still running: its record stays, for the next login to find.
    expect(existsSync(record)).toBe(true);
  });

  it('leaves the record of a live process that is no plants serve, and removes that of one that is gone', async () => {
    const home = await tempDir();
    const server = await startServer(home, [], {}, { keptToken: true });
    servers.push(server);
    const other = await fakeService();
    services.push(other);
    const records = join(servedDataDir(home), 'serving');
    const port = new URL(other.url).port;
    const recordOf = (pid: number) => {
      const path = join(records, `${pid}-${port}.json`);
      writeFileSync(path, `${JSON.stringify({ pid, urls: [other.url] })}\n`, { mode: 0o600 });
      return path;
    };
    // This test's process runs, but is no plants serve: not trusted, but not known gone either.
    const live = recordOf(process.pid);
    const gone = recordOf(spawnSync(process.execPath, ['-e', '0']).pid as number);
    const login = await runPlants(['login', '--base-url', other.url], isolatedEnv(home));
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('error: no token given, and standard input is not a terminal to ask on');
    expect(other.requests).toEqual([]);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(gone)).toBe(false);
  });

  it.skipIf(process.platform === 'win32')(
    'reads no record that is not a regular file: a FIFO named like one does not hang login',
    async () => {
      const home = await tempDir();
      const server = await startServer(home, [], {}, { keptToken: true });
      servers.push(server);
      const other = await fakeService();
      services.push(other);
      execFileSync('mkfifo', [join(servedDataDir(home), 'serving', '1-1.json')]);
      // For a URL no record names, login reads every record: the FIFO too, were it read.
      const login = await runPlantsWithin(10_000, ['login', '--base-url', other.url], isolatedEnv(home));
      expect(login.signal).toBeNull();
      expect(login.code).toBe(2);
      expect(other.requests).toEqual([]);
      const found = await runPlantsWithin(10_000, ['login', '--base-url', server.url, '--json'], isolatedEnv(home));
      expect(found.code).toBe(0);
      expect(JSON.parse(found.stdout)).toMatchObject({ baseUrl: server.url, source: 'local server' });
    },
  );

  it.runIf(process.getuid?.() === 0)(
    "trusts no record another user owns, nor a directory of records another user owns (as root: nobody's)",
    async () => {
      const home = await tempDir();
      const server = await startServer(home, [], {}, { keptToken: true });
      servers.push(server);
      const nobody = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }));
      const records = join(servedDataDir(home), 'serving');
      const record = join(records, `${server.child.pid}-${new URL(server.url).port}.json`);
      const login = () => runPlants(['login', '--base-url', server.url], isolatedEnv(home));
      // Root may write in nobody's directory, but nobody may put records of their own in it.
      chownSync(records, nobody, nobody);
      const inTheirDirectory = await login();
      expect(inTheirDirectory.code).toBe(2);
      expect(inTheirDirectory.stderr).toContain(
        'error: no token given, and standard input is not a terminal to ask on',
      );
      chownSync(records, 0, 0);
      chownSync(record, nobody, nobody);
      const theirRecord = await login();
      expect(theirRecord.code).toBe(2);
      expect(theirRecord.stderr).toContain('error: no token given, and standard input is not a terminal to ask on');
      chownSync(record, 0, 0);
      expect((await login()).code).toBe(0);
    },
  );

  it('is found for a serve whose records directory was there before, with a mode letting others write', async () => {
    const home = await tempDir();
    const records = join(servedDataDir(home), 'serving');
    mkdirSync(records, { recursive: true });
    chmodSync(records, 0o777);
    const server = await startServer(home, [], {}, { keptToken: true });
    servers.push(server);
    expect(statSync(records).mode & 0o777).toBe(0o700);
    const login = await runPlants(['login', '--base-url', server.url, '--json'], isolatedEnv(home));
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ baseUrl: server.url, source: 'local server' });
  });

  it.runIf(process.getuid?.() === 0)(
    "is not recorded in a records directory of another user's (as root: nobody's), and the serve says so",
    async () => {
      const home = await tempDir();
      const records = join(servedDataDir(home), 'serving');
      mkdirSync(records, { recursive: true, mode: 0o700 });
      chownSync(records, Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' })), 0);
      const server = await startServer(home, [], {}, { keptToken: true });
      servers.push(server);
      await waitFor('the warning', () => server.log().includes('plants login will not find its token'));
      expect(server.log()).toContain(
        `plants serve: warning: cannot record where it serves in ${records} (not a directory of this user's): ` +
          'plants login will not find its token; use plants login --with-token\n',
      );
      expect(readdirSync(records)).toEqual([]);
    },
  );

  it.runIf(process.platform === 'linux')(
    'is found for a serve on another loopback address than 127.0.0.1, as it records and says',
    async () => {
      const home = await tempDir();
      const server = await startServer(home, ['--host', '127.0.0.2'], {}, { keptToken: true });
      servers.push(server);
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.2:\d+$/);
      const login = await runPlants(['login', '--base-url', server.url, '--json'], isolatedEnv(home));
      expect(login.code).toBe(0);
      expect(JSON.parse(login.stdout)).toMatchObject({ baseUrl: server.url, source: 'local server' });
    },
  );

  it('is checked straight with the serve, never through a proxy the environment names', async () => {
    const home = await tempDir();
    const server = await startServer(home, [], {}, { keptToken: true });
    servers.push(server);
    const proxy = await fakeProxy();
    proxies.push(proxy);
    // NODE_USE_ENV_PROXY: Node 24's own http would take the proxy from the environment too.
    const env = isolatedEnv(home, {
      HTTP_PROXY: proxy.url,
      http_proxy: proxy.url,
      HTTPS_PROXY: proxy.url,
      NODE_USE_ENV_PROXY: '1',
    });
    const login = await runPlants(['login', '--base-url', server.url, '--json'], env);
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toMatchObject({ baseUrl: server.url, source: 'local server' });
    expect(proxy.tunnels).toEqual([]);
    expect(proxy.requests).toEqual([]);
  });
});
