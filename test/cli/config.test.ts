import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../helpers/test-context.js';

const TOKEN = 'tok_0123456789abcdefWXYZ';

async function savedConfig(configDir: string) {
  return JSON.parse(await readFile(join(configDir, 'config.json'), 'utf8'));
}

describe('plants login / logout', () => {
  it('saves the token and base URL in a config file readable by its owner only', async () => {
    const t = await testContext();
    expect(await t.run('login', '--no-check', '--token', TOKEN, '--base-url', 'http://127.0.0.1:9000/')).toBe(0);
    expect(await savedConfig(t.ctx.configDir)).toEqual({
      'base-url': 'http://127.0.0.1:9000',
      services: { 'http://127.0.0.1:9000': { token: TOKEN } },
    });
    expect((await stat(join(t.ctx.configDir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(t.ctx.configDir)).mode & 0o777).toBe(0o700);
    expect(t.stdout()).toBe('');
    expect(t.stderr()).toBe(
      'Logged in to http://127.0.0.1:9000: token not checked (--no-check), saved in ' +
        `${join(t.ctx.configDir, 'config.json')} (readable by you only)\n`,
    );
  });

  it('tightens a config file that was readable by others', async () => {
    const t = await testContext();
    await mkdir(t.ctx.configDir, { recursive: true });
    await writeFile(join(t.ctx.configDir, 'config.json'), '{"timeout":"5"}', { mode: 0o644 });
    expect(await t.run('login', '--no-check', '--token', TOKEN)).toBe(0);
    expect((await stat(join(t.ctx.configDir, 'config.json'))).mode & 0o777).toBe(0o600);
    expect(await savedConfig(t.ctx.configDir)).toEqual({
      timeout: '5',
      services: { 'http://127.0.0.1:8080': { token: TOKEN } },
    });
  });

  it('tightens a config directory that others could read', async () => {
    const t = await testContext();
    await mkdir(t.ctx.configDir, { recursive: true, mode: 0o755 });
    await chmod(t.ctx.configDir, 0o755);
    expect(await t.run('login', '--no-check', '--token', TOKEN)).toBe(0);
    expect((await stat(t.ctx.configDir)).mode & 0o777).toBe(0o700);
  });

  it('refuses a config value of the wrong type, naming it, rather than ignoring it', async () => {
    const t = await testContext();
    await mkdir(t.ctx.configDir, { recursive: true });
    const path = join(t.ctx.configDir, 'config.json');
    await writeFile(path, '{"timeout": true, "base-url": "http://127.0.0.1:1"}');
    expect(await t.run('create', '--id', '1', '--name', 'Fern', '--token', TOKEN)).toBe(2);
    expect(t.stderr()).toBe(
      `error: the config file ${path}: "timeout" must be a number or a string, got boolean\n` +
        'hint: fix it with plants config set timeout <value>, or plants config unset timeout\n',
    );
    await writeFile(path, '{"base-url": 8080}');
    expect(await t.run('config', 'get', 'base-url')).toBe(2);
    expect(t.stderr()).toContain(`error: the config file ${path}: "base-url" must be a string, got number\n`);
  });

  it('takes a number setting as a JSON number or as the string config set writes (issue 40)', async () => {
    const t = await testContext();
    await mkdir(t.ctx.configDir, { recursive: true });
    await writeFile(join(t.ctx.configDir, 'config.json'), '{"timeout": 10}');
    expect(await t.run('config', 'get', 'timeout')).toBe(0);
    expect(t.stdout()).toBe('10\n');
    expect(await t.run('config', 'list', '--json')).toBe(0);
    expect(JSON.parse(t.stdout().slice(3))).toMatchObject({ timeout: { value: '10', source: 'config' } });
    expect(await t.run('config', 'set', 'timeout', '0.5')).toBe(0);
    expect(await savedConfig(t.ctx.configDir)).toEqual({ timeout: '0.5' });
  });

  it('refuses a bad setting of the config file wherever it is read, --local too, naming it (issue 40)', async () => {
    const t = await testContext();
    await mkdir(t.ctx.configDir, { recursive: true });
    const path = join(t.ctx.configDir, 'config.json');
    const said =
      `error: the config file ${path}: "timeout": timeout must be a number of seconds above 0 and at most 3600 ` +
      '(e.g. 30 or 0.5), got "abc"\n' +
      'hint: fix it with plants config set timeout <value>, or plants config unset timeout\n';
    await writeFile(path, '{"timeout": "abc"}');
    const create = ['create', '--local', '--id', '1', '--name', 'Fern'];
    for (const argv of [['list', '--local'], create, ['list', '--token', TOKEN], ['config', 'get', 'store']]) {
      const each = await testContext();
      each.ctx.configDir = t.ctx.configDir;
      expect([argv, await each.run(...argv), each.stderr()]).toEqual([argv, 2, said]);
    }
    for (const [document, message] of [
      ['{"store": ""}', '"store": the value is empty'],
      ['{"base-url": "ftp://h"}', '"base-url": base URL must start with http:// or https://, got ftp:'],
    ]) {
      await writeFile(path, document as string);
      expect(await t.run('list', '--local')).toBe(2);
      expect(t.stderr()).toContain(`error: the config file ${path}: ${message}\n`);
    }
    // What the hint says mends it.
    await writeFile(path, '{"timeout": "abc"}');
    expect(await t.run('config', 'set', 'timeout', '10')).toBe(0);
    expect(await t.run('list', '--local')).toBe(0);
  });

  it('reads the token from stdin with --with-token, ignoring the trailing newline', async () => {
    const t = await testContext({ stdin: `${TOKEN}\n` });
    expect(await t.run('login', '--no-check', '--with-token', '--json')).toBe(0);
    expect((await savedConfig(t.ctx.configDir)).services['http://127.0.0.1:8080'].token).toBe(TOKEN);
    expect(JSON.parse(t.stdout())).toEqual({
      loggedIn: true,
      baseUrl: 'http://127.0.0.1:8080',
      source: 'stdin',
      checked: false,
      configPath: join(t.ctx.configDir, 'config.json'),
      warnings: [],
    });
    expect(t.stdout() + t.stderr()).not.toContain(TOKEN);
  });

  it.each([
    [['login', '--with-token'], '', 'the token is empty'],
    [
      ['login'],
      '',
      'no token given, and standard input is not a terminal to ask on (no plants serve of yours runs at ' +
        'http://127.0.0.1:8080 to take its token from)',
    ],
    [['login', '--token', 'a b'], '', 'the token must be printable ASCII with no spaces'],
    [['login', '--token', TOKEN, '--with-token'], '', 'give the token with --token or --with-token, not both'],
    [
      ['login', '--token', TOKEN, '--base-url', 'ftp://x'],
      '',
      'base URL must start with http:// or https://, got ftp:',
    ],
    [
      ['login', '--token', TOKEN, '--base-url', 'localhost:8080'],
      '',
      'base URL must start with http:// or https://, got localhost:',
    ],
    [
      ['login', '--token', TOKEN, '--base-url', 'plants'],
      '',
      'base URL "plants" is not a URL (expected e.g. http://127.0.0.1:8080)',
    ],
    [
      ['login', '--token', TOKEN, '--base-url', 'http://u:p@h'],
      '',
      'base URL must not contain a user name or password: use plants login --with-token',
    ],
    [
      ['login', '--token', TOKEN, '--base-url', 'http://h/?x=1'],
      '',
      'base URL must not have a query (?…) or fragment (#…)',
    ],
  ])('%j is refused (exit 2) and saves nothing', async (argv, stdin, message) => {
    const t = await testContext({ stdin });
    expect(await t.run(...argv)).toBe(2);
    expect(t.stderr().split('\n')[0]).toBe(`error: ${message}`);
    await expect(stat(join(t.ctx.configDir, 'config.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(t.stderr()).not.toContain(TOKEN);
  });

  it('warns when PLANTS_TOKEN will override the saved token', async () => {
    const t = await testContext({ env: { PLANTS_TOKEN: 'other-token-in-env' } });
    expect(await t.run('login', '--no-check', '--token', TOKEN)).toBe(0);
    expect(t.stderr()).toContain(
      'warning: PLANTS_TOKEN is set: it is sent instead of any saved token until you unset it',
    );
  });

  it('logout removes the token and keeps the base URL', async () => {
    const t = await testContext();
    await t.run('login', '--no-check', '--token', TOKEN, '--base-url', 'http://h:1');
    expect(await t.run('logout')).toBe(0);
    expect(await savedConfig(t.ctx.configDir)).toEqual({ 'base-url': 'http://h:1' });
    expect(t.stderr()).toContain('Logged out of http://h:1: its token removed from');
    // Said, lest the next command's "no token for http://h:1" be a mystery (issue 25, item 6).
    expect(t.stderr()).toContain(
      'The base URL stays http://h:1 (plants config unset base-url forgets it; plants config set base-url URL ' +
        'changes it)\n',
    );
    // Nothing to remove: exit 1, as gh does (issue 40).
    expect(await t.run('logout')).toBe(1);
    expect(t.stderr()).toContain('Not logged in to http://h:1: no token for it in');
  });

  it('logout of a service with no token saved exits 1, its document saying so', async () => {
    const t = await testContext();
    expect(await t.run('logout', '--json')).toBe(1);
    const document = JSON.parse(t.stdout());
    expect(document).toMatchObject({ loggedOut: false, hadToken: false, baseUrl: 'http://127.0.0.1:8080' });
    const other = await testContext();
    expect(await other.run('logout', '--base-url', 'http://other:2')).toBe(1);
    const path = join(other.ctx.configDir, 'config.json');
    expect(other.stderr()).toBe(`Not logged in to http://other:2: no token for it in ${path}\n`);
  });

  it('logout says where the base URL that stays comes from: in --json always, in words if login saved it', async () => {
    const t = await testContext();
    await t.run('login', '--no-check', '--token', TOKEN, '--base-url', 'http://h:1');
    expect(await t.run('logout', '--json')).toBe(0);
    expect(JSON.parse(t.stdout())).toMatchObject({
      loggedOut: true,
      baseUrl: 'http://h:1',
      hadToken: true,
      baseUrlFrom: 'config',
    });
    const other = await testContext();
    expect(await other.run('logout', '--base-url', 'http://other:2')).toBe(1);
    expect(other.stderr()).not.toContain('The base URL stays');
  });
});

describe('usage errors', () => {
  it('point to the help of the command, or of plants for an unknown command', async () => {
    const t = await testContext();
    expect(await t.run('creat')).toBe(2);
    expect(t.stderr()).toBe("error: unknown command 'creat'\n(Did you mean create?)\nhint: see plants --help\n");
    expect(await t.run('config', 'get')).toBe(2);
    expect(t.stderr()).toContain("error: missing required argument 'key'\nhint: see plants config get --help\n");
  });
});

describe('plants config', () => {
  it('lists each setting with its source, the token masked', async () => {
    const t = await testContext({ env: { PLANTS_TIMEOUT: '7' } });
    await t.run('login', '--no-check', '--token', TOKEN);
    expect(await t.run('config', 'list')).toBe(0);
    expect(t.stdout()).toBe(
      [
        'base-url  http://127.0.0.1:8080  (default)',
        'token     ****WXYZ  (config, for http://127.0.0.1:8080)',
        `store     ${join(t.ctx.dataDir, 'plants.json')}  (default)`,
        'timeout   7  (env PLANTS_TIMEOUT)',
        '',
      ].join('\n'),
    );
    expect(t.stdout()).not.toContain(TOKEN);
  });

  it('masks a short token entirely', async () => {
    const t = await testContext({ env: { PLANTS_TOKEN: 'short' } });
    expect(await t.run('config', 'get', 'token', '--json')).toBe(0);
    expect(JSON.parse(t.stdout())).toEqual({ key: 'token', value: '****', source: 'env PLANTS_TOKEN' });
  });

  it('takes a flag over the environment over the config file', async () => {
    const t = await testContext({ env: { PLANTS_BASE_URL: 'http://from-env:1' } });
    await t.run('config', 'set', 'base-url', 'http://from-config:1');
    expect(await t.run('config', 'get', 'base-url', '--json')).toBe(0);
    expect(JSON.parse(t.stdout())).toEqual({
      key: 'base-url',
      value: 'http://from-env:1',
      source: 'env PLANTS_BASE_URL',
    });
    const withoutEnv = await testContext();
    withoutEnv.ctx.configDir = t.ctx.configDir;
    await withoutEnv.run('config', 'get', 'base-url');
    expect(withoutEnv.stdout()).toBe('http://from-config:1\n');
  });

  it('set checks the value, stores a store path as absolute, unset removes it', async () => {
    const t = await testContext();
    expect(await t.run('config', 'set', 'timeout', 'soon')).toBe(2);
    expect(t.stderr()).toContain(
      'error: timeout must be a number of seconds above 0 and at most 3600 (e.g. 30 or 0.5), got "soon"',
    );
    expect(await t.run('config', 'set', 'store', 'mine.json')).toBe(0);
    expect((await savedConfig(t.ctx.configDir)).store).toBe(join(t.ctx.cwd, 'mine.json'));
    expect(await t.run('config', 'unset', 'store')).toBe(0);
    expect(await savedConfig(t.ctx.configDir)).toEqual({});
  });

  it('path prints where the config file is', async () => {
    const t = await testContext();
    expect(await t.run('config', 'path')).toBe(0);
    expect(t.stdout()).toBe(`${join(t.ctx.configDir, 'config.json')}\n`);
  });

  it('refuses a config file that is not JSON with a clear error (exit 2)', async () => {
    const t = await testContext();
    await mkdir(t.ctx.configDir, { recursive: true });
    await writeFile(join(t.ctx.configDir, 'config.json'), '{token: oops');
    expect(await t.run('config', 'list')).toBe(2);
    expect(t.stderr()).toContain(`error: the config file ${join(t.ctx.configDir, 'config.json')} is not valid JSON`);
  });

  it('names the source of a bad value', async () => {
    const t = await testContext({ env: { PLANTS_BASE_URL: 'nowhere', PLANTS_TOKEN: TOKEN } });
    expect(await t.run('create', '--id', '1', '--name', 'Fern')).toBe(2);
    expect(t.stderr()).toContain(
      'error: base URL "nowhere" is not a URL (expected e.g. http://127.0.0.1:8080) (from PLANTS_BASE_URL)',
    );
  });
});
