import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

describe('the config file changed by many plants processes at once (issue 29, part 4)', () => {
  it('keeps every login of 20 at once, then every logout and setting of 20 more', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home);
    const url = (i: number) => `http://127.0.0.1:${9000 + i}`;
    const logins = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        runPlants(['login', '--no-check', '--base-url', url(i), '--with-token'], env, `token-number-${i}-of-twenty\n`),
      ),
    );
    expect(logins.map((result) => result.code)).toEqual(Array(20).fill(0));
    const config = () =>
      JSON.parse(readFileSync(join(env.PLANTS_CONFIG_DIR as string, 'config.json'), 'utf8')) as {
        services?: Record<string, { token: string }>;
        timeout?: string;
      };
    expect(Object.keys(config().services ?? {}).sort()).toEqual(Array.from({ length: 20 }, (_, i) => url(i)).sort());
    // Half log out, while the other half of the processes set and unset settings.
    const more = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? runPlants(['logout', '--base-url', url(i)], env)
          : runPlants(i === 1 ? ['config', 'set', 'timeout', '12'] : ['config', 'set', 'base-url', url(i)], env),
      ),
    );
    expect(more.map((result) => result.code)).toEqual(Array(20).fill(0));
    expect(Object.keys(config().services ?? {}).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => url(2 * i + 1)).sort(),
    );
    expect(config().timeout).toBe('12');
  });
});
