import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runPlantsWithin } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

// A directory that cannot be made, though its parent is there, says ENOENT (anything under /proc):
// Node 20's mkdirSync(…, {recursive: true}) then loops forever at full CPU, deaf to SIGTERM and
// SIGINT. Every directory plants makes (the store's, the config's, the data directory) must fail
// at once instead, with the real error.

const UNMAKEABLE = '/proc/nonexistent';

describe.runIf(process.platform === 'linux')('a directory that cannot be made fails at once, never spins', () => {
  it('create --local --store under /proc: exit 4, the cause named', async () => {
    const home = await tempDir();
    const store = `${UNMAKEABLE}/p.json`;
    const result = await runPlantsWithin(
      10_000,
      ['create', '--local', '--store', store, '--id', '1', '--name', 'Fern'],
      isolatedEnv(home),
    );
    expect(result.signal).toBeNull();
    expect(result.stderr).toBe(
      `error: could not create the directory of the store ${store}: no such file or directory (ENOENT)\n`,
    );
    expect(result.code).toBe(4);
  });

  it('create --local through a dangling store symlink into /proc: exit 4', async () => {
    const home = await tempDir();
    const link = join(home, 'plants.json');
    symlinkSync(`${UNMAKEABLE}/p.json`, link);
    const result = await runPlantsWithin(
      10_000,
      ['create', '--local', '--store', link, '--id', '1', '--name', 'Fern'],
      isolatedEnv(home),
    );
    expect(result.signal).toBeNull();
    expect(result.stderr).toContain(
      `could not create the directory of the store ${UNMAKEABLE}/p.json: no such file or directory (ENOENT)`,
    );
    expect(result.code).toBe(4);
  });

  it('config set with PLANTS_CONFIG_DIR under /proc: exit 4, the cause named', async () => {
    const home = await tempDir();
    const configDir = `${UNMAKEABLE}/config`;
    const result = await runPlantsWithin(
      10_000,
      ['config', 'set', 'timeout', '5'],
      isolatedEnv(home, { PLANTS_CONFIG_DIR: configDir }),
    );
    expect(result.signal).toBeNull();
    expect(result.stderr.split('\n')[0]).toBe(
      `error: could not write the config file ${configDir}/config.json: no such file or directory (ENOENT)`,
    );
    expect(result.code).toBe(4);
  });

  it('serve with no token, its data directory under /proc: exit 4, the cause named', async () => {
    const home = await tempDir();
    const result = await runPlantsWithin(
      10_000,
      ['serve', '--port', '0', '--store', join(home, 'plants.json')],
      isolatedEnv(home, { XDG_DATA_HOME: UNMAKEABLE }),
    );
    expect(result.signal).toBeNull();
    expect(result.stderr.split('\n')[0]).toBe(
      `error: could not write the server token file ${UNMAKEABLE}/plants/server-token: no such file or ` +
        'directory (ENOENT)',
    );
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
  });
});
