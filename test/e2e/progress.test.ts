import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

/** Runs a command on a pseudo-terminal (util-linux `script`), as a person at a terminal would. */
function onTerminal(command: string, env: Record<string, string>): Promise<string> {
  const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env: { ...env, TERM: 'xterm' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve) => child.on('close', () => resolve(output)));
}

describe('the import progress line', () => {
  it('is drawn on a terminal, and the summary follows it', async () => {
    const home = await tempDir();
    const input = join(home, 'rows.ndjson');
    await writeFile(input, Array.from({ length: 200_000 }, (_, i) => `{"id":${i},"name":"p${i}"}`).join('\n'));
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'store.json') });
    const output = await onTerminal(`${process.execPath} ${BIN} import ${input} --local`, env);
    expect(output).toMatch(/\d+% \| [\d,]+ rows \| [\d,]+\/s \| 0 failed \| ETA/);
    expect(output).toMatch(/Imported.* 200,000 rows into .*: 200,000 created, 0 skipped, 0 failed/);
  });

  it('is not drawn when stderr is not a terminal', async () => {
    const home = await tempDir();
    const input = join(home, 'rows.ndjson');
    await writeFile(input, Array.from({ length: 200_000 }, (_, i) => `{"id":${i},"name":"p${i}"}`).join('\n'));
    const result = await runPlants(['import', input, '--local'], isolatedEnv(home, { PLANTS_STORE: join(home, 'store.json') }));
    expect(result.stderr).toMatch(/^Imported 200,000 rows into .*: 200,000 created, 0 skipped, 0 failed\n$/);
  });
});
