import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../helpers/test-context.js';

describe('plants create --local', () => {
  it('creates the store in the data directory on first use, int64 exact through to --json', async () => {
    const t = await testContext();
    expect(
      await t.run('create', '--local', '--id', '9223372036854775807', '--name', 'Max', '--tag', 'herb', '--json'),
    ).toBe(0);
    expect(t.stdout()).toBe('{\n  "id": 9223372036854775807,\n  "name": "Max",\n  "tag": "herb"\n}\n');
    expect(await readFile(`${t.storePath}.journal`, 'utf8')).toContain(
      '{"id":9223372036854775807,"name":"Max","tag":"herb"}',
    );
  });

  it('uses --store over PLANTS_STORE over the config file, relative to the working directory', async () => {
    const t = await testContext({ env: { PLANTS_STORE: 'env.json' } });
    await t.run('config', 'set', 'store', join(t.dir, 'config.json.store'));
    expect(await t.run('create', '--local', '--store', 'flag.json', '--id', '1', '--name', 'a')).toBe(0);
    expect(await t.run('create', '--local', '--id', '2', '--name', 'b')).toBe(0);
    expect(await readFile(join(t.dir, 'flag.json.journal'), 'utf8')).toContain('"id":1');
    expect(await readFile(join(t.dir, 'env.json.journal'), 'utf8')).toContain('"id":2');
    expect(t.stdout()).toBe(
      `Created plant 1 "a" in ${join(t.dir, 'flag.json')}\nCreated plant 2 "b" in ${join(t.dir, 'env.json')}\n`,
    );
  });

  it('shows a name holding a backslash and an n apart from one holding a line break; stores both as is', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--id', '1', '--name', 'two\\nchars', '--tag', 'C:\\plants')).toBe(0);
    expect(await t.run('create', '--local', '--id', '2', '--name', 'two\nchars')).toBe(0);
    expect(t.stdout()).toBe(
      `Created plant 1 "two\\\\nchars" tagged "C:\\\\plants" in ${t.storePath}\nCreated plant 2 "two\\nchars" ` +
        `in ${t.storePath}\n`,
    );
    expect(await readFile(`${t.storePath}.journal`, 'utf8')).toBe(
      '{"id":1,"name":"two\\\\nchars","tag":"C:\\\\plants"}\n{"id":2,"name":"two\\nchars"}\n',
    );
  });

  it('refuses a duplicate with the same Error as the service (exit 1)', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--id', '1', '--name', 'Fern')).toBe(0);
    const [created] = t.stdout().split('\n');
    expect(created).toBe(`Created plant 1 "Fern" in ${t.storePath}`);
    expect(await t.run('create', '--local', '--id', '1', '--name', 'Oak', '--json')).toBe(1);
    expect(JSON.parse(t.stdout().slice(created!.length + 1))).toEqual({
      error: 1002,
      code: 'duplicate_id',
      message: 'a plant with id 1 already exists',
    });
  });

  it('refuses a store that is not ours (exit 4) and leaves it untouched', async () => {
    const t = await testContext();
    await mkdir(dirname(t.storePath), { recursive: true });
    await writeFile(t.storePath, '{"dependencies": {}}');
    expect(await t.run('create', '--local', '--id', '1', '--name', 'Fern')).toBe(4);
    expect(t.stderr()).toBe(
      `error: ${t.storePath} is not a usable plants store: not a plants store file (no "plantStore" marker); ` +
        'it was left untouched\n' +
        'hint: point --store (or PLANTS_STORE) at another file, or repair or move this one\n',
    );
    expect(await readFile(t.storePath, 'utf8')).toBe('{"dependencies": {}}');
  });

  it.each([
    ['bytes that are no JSON', '{"plantStore": 1, "plants": [\u001b[2J'],
    ['a plant with a bad field', '{"plantStore": 1, "plants": [{"id": "\u001b]0;pwned\u0007", "name": "x"}]}'],
  ])('shows control characters of a corrupt store (%s) escaped, never raw', async (_what, content) => {
    const t = await testContext();
    await mkdir(dirname(t.storePath), { recursive: true });
    await writeFile(t.storePath, content);
    expect(await t.run('create', '--local', '--id', '1', '--name', 'Fern')).toBe(4);
    expect(t.stderr()).toMatch(/^error: .* is not a usable plants store: /);
    expect(t.stderr()).toMatch(/\\u001b/);
    // eslint-disable-next-line no-control-regex -- no control character but the line breaks
    expect(t.stderr()).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it('colours output on a TTY only', async () => {
    const tty = await testContext({ tty: true });
    await tty.run('create', '--local', '--id', '1', '--name', 'Fern');
    await tty.run('create', '--local', '--id', '1', '--name', 'Fern');
    expect(tty.stdout()).toContain('\u001b[32mCreated\u001b[39m');
    expect(tty.stderr()).toContain('\u001b[31merror:\u001b[39m');
    const pipe = await testContext();
    await pipe.run('create', '--local', '--id', '1', '--name', 'Fern');
    expect(pipe.stdout()).not.toContain('\u001b');
  });
});
