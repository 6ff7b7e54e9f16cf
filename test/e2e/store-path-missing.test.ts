import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { onTerminal } from '../helpers/terminal.js';
import { tempDir } from '../helpers/temp.js';

describe('a store path that names no store (issue 25, item 5)', () => {
  it('in a directory that does not exist: an error for a read, exit 4; a create makes it', async () => {
    const home = await tempDir();
    const store = join(home, 'no-such-dir', 'plants.json');
    for (const args of [['list'], ['get', '1'], ['delete', '1'], ['update', '1', '--name', 'x']]) {
      const result = await runPlants([...args, '--local', '--store', store], isolatedEnv(home));
      expect(result, args.join(' ')).toMatchObject({
        code: 4,
        stdout: '',
        stderr:
          `error: there is no store at ${store}: its directory ${join(home, 'no-such-dir')} does not ` +
          'exist\nhint: check --store (or PLANTS_STORE, or the store setting)\n',
      });
    }
    expect(
      (await runPlants(['create', '--local', '--store', store, '--id', '1', '--name', 'Fern'], isolatedEnv(home))).code,
    ).toBe(0);
    expect((await runPlants(['list', '--local', '--store', store], isolatedEnv(home))).stdout).toBe('1\tFern\t\n');
  });

  it('a missing file in a directory that exists is an empty store: nothing in a pipe, a notice on a tty', async () => {
    const home = await tempDir();
    const store = join(home, 'typo.json');
    expect(await runPlants(['list', '--local', '--store', store], isolatedEnv(home))).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    const shown = await onTerminal(
      `${process.execPath} ${BIN} list --local --store ${store}; echo "exit $?"`,
      isolatedEnv(home),
    );
    expect(shown.replace(/\r/g, '')).toBe(`no plants yet in ${store}\nexit 0\n`);
  });
});
