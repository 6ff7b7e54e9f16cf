import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { readFirstLine } from '../../src/cli/first-line.js';
import { fakeService } from '../helpers/fake-service.js';
import { servedDataDir, startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { testContext } from '../helpers/test-context.js';

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  servers = [];
});

async function serve(): Promise<RunningServer> {
  const server = await startServer(await tempDir());
  servers.push(server);
  return server;
}

describe('plants auth status', () => {
  it('says per saved service whether its token is accepted (POST of {}, nothing stored): exit 0, 3, 4', async () => {
    const [good, bad] = [await serve(), await serve()];
    const t = await testContext();
    expect(await t.run('login', '--base-url', good.url, '--token', good.token)).toBe(0);
    expect(await t.run('auth', 'status')).toBe(0);
    expect(t.stdout()).toBe(`${good.url}  ****7890 (config)  accepted\n`);

    expect(await t.run('login', '--no-check', '--base-url', bad.url, '--token', 'not-the-token-of-bad')).toBe(0);
    expect(
      await t.run('login', '--no-check', '--base-url', 'http://127.0.0.1:1', '--token', 'token-of-nobody-at-all'),
    ).toBe(0);
    const json = await testContext();
    json.ctx.configDir = t.ctx.configDir;
    expect(await json.run('auth', 'status', '--json')).toBe(3);
    const { services } = JSON.parse(json.stdout()) as {
      services: { baseUrl: string; status: string; token: string; message?: string }[];
    };
    expect(services.map(({ baseUrl, status }) => [baseUrl, status])).toEqual([
      [good.url, 'accepted'],
      [bad.url, 'refused'],
      ['http://127.0.0.1:1', 'unchecked'],
    ]);
    expect(services[1]?.message).toBe(`the service refused the token: run plants login --base-url ${bad.url}`);
    expect(services[2]?.message).toContain('could not connect to http://127.0.0.1:1/plants: connection refused');
    expect(json.stdout() + json.stderr()).not.toContain('not-the-token-of-bad');
    // The checks stored nothing.
    expect(await readFile(`${good.store}.journal`, 'utf8').catch(() => '')).toBe('');

    const one = await testContext();
    one.ctx.configDir = t.ctx.configDir;
    expect(await one.run('auth', 'status', '--base-url', 'http://127.0.0.1:1')).toBe(4);
    expect(await one.run('auth', 'status', '--base-url', 'http://127.0.0.1:2')).toBe(3);
    expect(one.stderr()).toContain('no token saved: run plants login --base-url http://127.0.0.1:2\n');
  });

  it('says a proxy variable that names no proxy once, as a usage error (exit 2), not once per service', async () => {
    const t = await testContext({ env: { HTTP_PROXY: 'notaurl' } });
    expect(
      await t.run('login', '--no-check', '--base-url', 'http://127.0.0.1:1', '--token', 'token-of-the-first-service'),
    ).toBe(0);
    expect(
      await t.run('login', '--no-check', '--base-url', 'http://127.0.0.1:2', '--token', 'token-of-the-second-service'),
    ).toBe(0);
    const said = t.stderr().length;
    expect(await t.run('auth', 'status')).toBe(2);
    expect(t.stderr().slice(said)).toBe(
      'error: HTTP_PROXY is not a proxy URL: "notaurl" (expected e.g. http://proxy.example.com:3128)\nhint: ' +
        'fix or unset HTTP_PROXY\n',
    );
    expect(t.stdout()).toBe('');
    const json = await testContext({ env: { HTTP_PROXY: 'notaurl' } });
    json.ctx.configDir = t.ctx.configDir;
    expect(await json.run('auth', 'status', '--json')).toBe(2);
    expect(JSON.parse(json.stdout())).toMatchObject({
      code: 'usage',
      message: 'HTTP_PROXY is not a proxy URL: "notaurl" (expected e.g. http://proxy.example.com:3128)',
    });
  });

  it('checks PLANTS_TOKEN in place of the saved token of the base URL it goes to', async () => {
    const server = await serve();
    const t = await testContext({ env: { PLANTS_TOKEN: server.token, PLANTS_BASE_URL: server.url } });
    expect(await t.run('auth', 'status', '--json')).toBe(0);
    expect(JSON.parse(t.stdout())).toEqual({
      services: [{ baseUrl: server.url, token: '****7890', source: 'env PLANTS_TOKEN', status: 'accepted' }],
    });
  });
});

describe('plants login checks the token with the service before it saves it, as gh does', () => {
  it('saves a token the service accepts, and says so', async () => {
    const server = await serve();
    const t = await testContext();
    expect(await t.run('login', '--base-url', server.url, '--token', server.token, '--json')).toBe(0);
    expect(JSON.parse(t.stdout())).toMatchObject({ loggedIn: true, baseUrl: server.url, checked: true });
    const saved = JSON.parse(await readFile(join(t.ctx.configDir, 'config.json'), 'utf8'));
    expect(saved).toEqual({ 'base-url': server.url, services: { [server.url]: { token: server.token } } });
  });

  it(
    'saves nothing, and leaves the base URL as it was, for a refused token (exit 3) or a service not there (exit ' +
      '4)',
    async () => {
      const server = await serve();
      const t = await testContext();
      expect(await t.run('config', 'set', 'base-url', 'http://127.0.0.1:7')).toBe(0);
      const before = await readFile(join(t.ctx.configDir, 'config.json'), 'utf8');
      expect(await t.run('login', '--base-url', server.url, '--token', 'not-the-token-of-this-service')).toBe(3);
      expect(t.stderr()).toContain(`error: ${server.url} refused the token: it was not saved\n`);
      expect(await t.run('login', '--base-url', 'http://127.0.0.1:1', '--token', 'a-token-for-nobody')).toBe(4);
      expect(t.stderr()).toContain(
        'error: could not check the token with http://127.0.0.1:1, so it was not saved: could not connect to ' +
          'http://127.0.0.1:1/plants: connection refused\n',
      );
      expect(t.stderr()).toContain(
        'hint: start the service (or check the base URL), or save the token unchecked: plants login --base-url ' +
          'http://127.0.0.1:1 --no-check\n',
      );
      expect(await readFile(join(t.ctx.configDir, 'config.json'), 'utf8')).toBe(before);
    },
  );

  it(
    'keeps the hint of an answer outside the contract (a redirect: point --base-url at the new address), with ' +
      '--no-check',
    async () => {
      const service = await fakeService();
      service.answer({ status: 301, headers: { location: 'https://plants.example.com/plants' } });
      try {
        const t = await testContext();
        expect(await t.run('login', '--base-url', service.url, '--token', 'a-token-for-a-moved-service')).toBe(4);
        expect(t.stderr()).toContain(
          `error: could not check the token with ${service.url}, so it was not saved: the service answered HTTP ` +
            '301, a redirect to https://plants.example.com/plants',
        );
        expect(t.stderr()).toContain(
          'hint: if the service has moved, point --base-url (or plants config set base-url) at its new address; ' +
            `or save the token unchecked: plants login --base-url ${service.url} --no-check\n`,
        );
        expect(t.stderr()).not.toContain('a-token-for-a-moved-service');
      } finally {
        await service.close();
      }
    },
  );
});

describe('plants login: where the token comes from', () => {
  it('asks on a terminal, hidden, with no token flag, and with --with-token', async () => {
    for (const argv of [['login'], ['login', '--with-token']]) {
      const t = await testContext({ terminalAnswer: ' typed-token-0123456789 ' });
      expect(await t.run(...argv, '--no-check', '--base-url', 'https://plants.example.com', '--json')).toBe(0);
      // With no token flag, it says first that no plants serve of this user's was found there (issue 25, item 7).
      const noServe =
        argv.length === 1
          ? 'no plants serve of yours runs at https://plants.example.com to take its token from: give the token\n'
          : '';
      expect(t.stderr()).toBe(`${noServe}Token for https://plants.example.com (input hidden): \n`);
      expect(JSON.parse(t.stdout())).toMatchObject({ baseUrl: 'https://plants.example.com', source: 'prompt' });
      const saved = JSON.parse(await readFile(join(t.ctx.configDir, 'config.json'), 'utf8'));
      expect(saved.services['https://plants.example.com'].token).toBe('typed-token-0123456789');
    }
    const empty = await testContext({ terminalAnswer: '' });
    expect(await empty.run('login')).toBe(2);
    expect(empty.stderr()).toContain('error: no token entered');
  });

  it('PLANTS_PROMPT_DISABLED: nothing asked on a terminal; no token: usage error; --with-token: stdin', async () => {
    const env = { PLANTS_PROMPT_DISABLED: '1' };
    const url = 'https://plants.example.com';
    const t = await testContext({ terminalAnswer: 'never-typed-0123456789', env });
    expect(await t.run('login', '--no-check', '--base-url', url)).toBe(2);
    expect(t.stderr()).toContain(`error: no token given, and PLANTS_PROMPT_DISABLED is set (no plants serve of yours`);
    expect(t.stderr()).not.toContain('Token for');
    const piped = await testContext({ terminalAnswer: 'never-typed-0123456789', stdin: 'piped-token-012345\n', env });
    expect(await piped.run('login', '--with-token', '--no-check', '--base-url', url, '--json')).toBe(0);
    expect(JSON.parse(piped.stdout())).toMatchObject({ source: 'stdin' });
    expect(piped.stderr()).not.toContain('Token for');
  });

  it(
    "takes a local plants serve's own token, for the base URL that serve recorded and that accepts it, and for " +
      'no other',
    async () => {
      const home = await tempDir();
      const server = await startServer(home, [], {}, { keptToken: true });
      servers.push(server);
      const t = await testContext();
      t.ctx.dataDir = servedDataDir(home);
      const tokenFile = join(t.ctx.dataDir, 'server-token');
      expect(await t.run('login', '--base-url', server.url, '--json')).toBe(0);
      expect(JSON.parse(t.stdout())).toMatchObject({ source: 'local server' });
      // Another spelling of this machine is not the URL the serve recorded: localhost may be ::1,
      // where another process may listen on the same port.
      expect(await t.run('login', '--base-url', server.url.replace('127.0.0.1', 'localhost'))).toBe(2);
      expect(t.stderr()).toContain('error: no token given, and standard input is not a terminal to ask on');
      // Another host: the local token is not sent off the machine; with no terminal, nothing to ask on.
      expect(await t.run('login', '--base-url', 'https://plants.example.com')).toBe(2);
      expect(t.stderr()).toContain('error: no token given, and standard input is not a terminal to ask on');
      // A token the local service does not accept is not saved.
      await writeFile(tokenFile, 'a-token-the-server-refuses\n');
      expect(await t.run('login', '--base-url', server.url)).toBe(2);
      // One that others can read is refused outright.
      await chmod(tokenFile, 0o644);
      expect(await t.run('login', '--base-url', server.url)).toBe(2);
      expect(t.stderr()).toContain(`error: the server token file ${tokenFile} can be read by other users`);
    },
  );

  it('reads no more than the first line of standard input, and at most 8 KiB of it', async () => {
    expect(await readFirstLine(Readable.from(['tok', 'en\nsecond line']), 'stdin')).toBe('token');
    await expect(
      readFirstLine(Readable.from([Buffer.alloc(5000), Buffer.alloc(5000)]), 'standard input'),
    ).rejects.toThrow('the first line of standard input is longer than 8192 bytes: not a token');
    const t = await testContext({ stdin: 'x'.repeat(10_000) });
    expect(await t.run('login', '--with-token')).toBe(2);
  });
});
