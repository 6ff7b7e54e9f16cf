import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, finished, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { fakeService, type FakeService } from '../helpers/fake-service.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const TOKEN = 'e2e-secret-token-5f4dcc3b5aa765d61d8327deb882cf99';

let service: FakeService;
beforeAll(async () => {
  service = await fakeService();
});
afterAll(async () => {
  await service.close();
});

describe('bin/plants.cjs', () => {
  it('holds the version of package.json, and nothing else of it (its devDependencies, its scripts)', async () => {
    const packageJson = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const version = await runPlants(['--version'], isolatedEnv(await tempDir()));
    expect(version.stdout).toBe(`${packageJson.version}\n`);
    const bundled = (await readdir(join(ROOT, 'dist'), { recursive: true })).filter((name) => name.endsWith('.js'));
    expect(bundled).toContain(join('cli', 'main.js'));
    for (const name of bundled)
      expect(await readFile(join(ROOT, 'dist', name), 'utf8')).not.toMatch(/devDependencies|"prepack"/);
  });

  it('prints its version and help, exit 0', async () => {
    const home = await tempDir();
    // The word alone (main.ts answers it), and among others (commander does).
    for (const words of [['--version'], ['-V'], ['--no-color', '--version']]) {
      const version = await runPlants(words, isolatedEnv(home));
      expect(version).toMatchObject({ code: 0, stderr: '' });
      expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    }
    const help = await runPlants(['create', '--help'], isolatedEnv(home));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--id <id>');
    const top = await runPlants(['--help'], isolatedEnv(home));
    expect(top.code).toBe(0);
    // Every variable the README documents is listed.
    for (const name of [
      'PLANTS_BASE_URL',
      'PLANTS_TOKEN',
      'PLANTS_STORE',
      'PLANTS_TIMEOUT',
      'PLANTS_CONFIG_DIR',
      'PLANTS_SERVER_TOKENS',
      'PLANTS_DEBUG',
    ]) {
      expect(top.stdout).toContain(`  ${name} `);
    }
  });

  it('keeps int64 bounds exact from flag to store file to --json', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home);
    for (const id of ['9223372036854775807', '-9223372036854775808']) {
      const result = await runPlants(['create', '--local', '--id', id, '--name', 'Edge', '--json'], env);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toBe(`{\n  "id": ${id},\n  "name": "Edge"\n}\n`);
    }
    // The default store is in the XDG data directory; a write goes to its journal first.
    const store = await readFile(join(home, '.local/share/plants/plants.json.journal'), 'utf8');
    expect(store).toContain('{"id":9223372036854775807,"name":"Edge"}');
    expect(store).toContain('{"id":-9223372036854775808,"name":"Edge"}');
    const tooBig = await runPlants(['create', '--local', '--id', '9223372036854775808', '--name', 'x'], env);
    expect(tooBig).toMatchObject({ code: 2, stdout: '' });
    expect(tooBig.stderr).toBe(
      'error: invalid plant:\n  id must be between -9223372036854775808 and 9223372036854775807, got ' +
        '9223372036854775808\n',
    );
  });

  it('never prints the token, whatever happens', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home, { PLANTS_BASE_URL: service.url });
    const outputs: string[] = [];
    const record = async (args: string[], input = '', extra: Record<string, string> = {}) => {
      const result = await runPlants(args, { ...env, ...extra }, input);
      outputs.push(result.stdout, result.stderr);
      return result;
    };
    expect((await record(['login', '--no-check', '--with-token'], `${TOKEN}\n`)).code).toBe(0);
    expect((await stat(join(home, 'config/config.json'))).mode & 0o777).toBe(0o600);
    await record(['config', 'list']);
    await record(['config', 'list', '--json']);
    await record(['config', 'get', 'token']);
    service.answer({ status: 200, body: '{"name":"Fern"}' });
    expect((await record(['create', '--id', '1', '--name', 'Fern', '--json'])).code).toBe(0);
    service.answer({ status: 401, body: '{"error":1006,"message":"unknown token"}' });
    expect((await record(['create', '--id', '1', '--name', 'Fern'])).code).toBe(3);
    service.answer({ status: 500, body: `echo of your header: Bearer ${TOKEN.slice(0, 10)}` });
    expect((await record(['create', '--id', '1', '--name', 'Fern'])).code).toBe(4);
    // Another service: the saved token is not sent there, and the message names the service.
    const elsewhere = await record(['create', '--id', '1', '--name', 'Fern'], '', {
      PLANTS_BASE_URL: 'http://127.0.0.1:1',
    });
    expect(elsewhere.code).toBe(3);
    expect(elsewhere.stderr).toContain(
      `error: no token for http://127.0.0.1:1 (tokens are saved for ${service.url}, and are sent only there)`,
    );
    expect(
      (
        await record(['create', '--id', '1', '--name', 'Fern'], '', {
          PLANTS_BASE_URL: 'http://127.0.0.1:1',
          PLANTS_TOKEN: TOKEN,
        })
      ).code,
    ).toBe(4);
    expect((await record(['create', '--id', '1', '--name', 'Fern'], '', { PLANTS_DEBUG: '1' })).code).toBe(4);
    // A mistyped flag must not echo the secret typed after it.
    expect((await record(['create', '--id', '1', '--name', 'Fern', `--tokn=${TOKEN}`])).code).toBe(2);
    expect((await record(['login', `--tokne=${TOKEN}`, '--json'])).code).toBe(2);
    expect(service.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    for (const output of outputs) expect(output).not.toContain(TOKEN);
  });

  it('says a clone is not built yet, rather than a stack trace (exit 70)', async () => {
    const clone = await tempDir();
    await mkdir(join(clone, 'bin'));
    await copyFile(BIN, join(clone, 'bin', 'plants.cjs'));
    const result = await finished(
      spawn(process.execPath, [join(clone, 'bin', 'plants.cjs'), '--version'], { env: isolatedEnv(clone) }),
    );
    expect(result).toMatchObject({
      code: 70,
      stdout: '',
      stderr: 'plants: not built yet (no dist/): in a clone of plants, run npm run build\n',
    });
  });

  it('honours NO_COLOR, FORCE_COLOR and --no-color', async () => {
    const home = await tempDir();
    const args = ['create', '--local', '--id', '1', '--name', 'Fern'];
    const forced = await runPlants(args, isolatedEnv(home, { FORCE_COLOR: '1' }));
    expect(forced.stdout).toContain('\u001b[32mCreated');
    const noColor = await runPlants(args, isolatedEnv(home, { FORCE_COLOR: '1', NO_COLOR: '1' }));
    expect(noColor.stderr).toBe('error: a plant with id 1 already exists\n');
    const flag = await runPlants([...args, '--no-color'], isolatedEnv(home, { FORCE_COLOR: '1' }));
    expect(flag.stderr).toBe('error: a plant with id 1 already exists\n');
  });

  it('shows help on stdout, and exits 0, when a command is missing, as gh does', async () => {
    const home = await tempDir();
    for (const args of [[], ['config']]) {
      const result = await runPlants(args, isolatedEnv(home));
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain('USAGE\n  plants ');
    }
  });

  it('answers a usage error with a hint, exit 2, and a JSON document under --json', async () => {
    const home = await tempDir();
    const human = await runPlants(['create', '--nme', 'Fern'], isolatedEnv(home));
    expect(human).toMatchObject({ code: 2, stdout: '' });
    expect(human.stderr).toBe(
      "error: unknown option '--nme'\n(Did you mean --name?)\nhint: see plants create --help\n",
    );
    const json = await runPlants(['create', '--nam', 'x', '--json'], isolatedEnv(home));
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 2001, code: 'usage', hint: 'see plants create --help' });
    expect(json.stderr).toBe('');
    // The hint names a command only where argv names one: not a value after an unknown option.
    const before = await runPlants(['--bogus', '5', 'list'], isolatedEnv(home));
    expect(before).toMatchObject({ code: 2, stderr: "error: unknown option '--bogus'\nhint: see plants --help\n" });
    const grouped = await runPlants(['config', 'get', 'base-url', '--bogus'], isolatedEnv(home));
    expect(grouped).toMatchObject({
      code: 2,
      stderr: "error: unknown option '--bogus'\nhint: see plants config get --help\n",
    });
  });
});
