import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';
import { onTerminal } from '../helpers/terminal.js';

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
