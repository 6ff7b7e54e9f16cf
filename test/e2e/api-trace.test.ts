import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('PLANTS_DEBUG=api', () => {
  it('writes each request and answer on stderr, the token masked, bodies cut, escaped; none without it', async () => {
    const home = await tempDir();
    server = await startServer(home);
    const env = { ...isolatedEnv(home), PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token };
    const traced = await runPlants(['create', '--id', '7', '--name', 'Fern \u001b[31m'], {
      ...env,
      PLANTS_DEBUG: 'api',
    });
    expect(traced.code).toBe(0);
    expect(traced.stderr).toContain(`> POST ${server.url}/plants\n> authorization: Bearer ****\n`);
    expect(traced.stderr).toMatch(/\n< 200 \(\d+ ms\)\n<\n\{"name":"Fern \\u001b\[31m"\}\n$/);
    expect(traced.stderr).not.toContain(server.token);
    expect(traced.stderr).not.toContain('\u001b');

    const rows = join(home, 'many.ndjson');
    await writeFile(rows, Array.from({ length: 300 }, (_, i) => `{"id":${1000 + i},"name":"plant ${i}"}\n`).join(''));
    expect((await runPlants(['import', rows], env)).code).toBe(0);
    const listed = await runPlants(['list', '--limit', '300', '--json'], { ...env, PLANTS_DEBUG: 'api' });
    expect(listed.stderr).toMatch(/> GET .*\/plants\?limit=300\n/);
    expect(listed.stderr).toMatch(/ … \(\d+ characters in all\)\n$/);

    const quiet = await runPlants(['get', '7'], env);
    expect(quiet).toMatchObject({ code: 0, stderr: '' });
  });
});
