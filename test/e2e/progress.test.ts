import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { duration, progressFigures } from '../../src/cli/bulk/progress.js';
import { startServer } from '../helpers/serve-process.js';
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
    const result = await runPlants(
      ['import', input, '--local'],
      isolatedEnv(home, { PLANTS_STORE: join(home, 'store.json') }),
    );
    expect(result.stderr).toMatch(/^Imported 200,000 rows into .*: 200,000 created, 0 skipped, 0 failed\n$/);
  });
});

describe('the import progress figures', () => {
  const counts = (finished: number) => ({
    read: finished,
    done: finished,
    skipped: 0,
    updated: 0,
    unchanged: 0,
    valid: 0,
    failed: 0,
    unknown: 0,
    notSent: 0,
  });

  it('follow the rows finished, not the bytes read, and are never NaN, infinite or over 1', () => {
    // 10,000 rows of 100 bytes; 4,000 handed out, 1,000 finished.
    expect(progressFigures(counts(1_000), { bytes: 400_000, records: 4_000 }, 1_000_000, 2_000)).toEqual({
      finished: 1_000,
      rate: 500,
      fraction: 0.1,
      etaSeconds: 18,
    });
    for (const [finished, consumed, total, elapsed] of [
      [0, { bytes: 0, records: 0 }, 1_000, 0],
      [0, { bytes: 0, records: 0 }, 0, 5_000],
      [5, { bytes: 500, records: 5 }, undefined, 0],
      [10, { bytes: 2_000, records: 10 }, 1_000, 10],
    ] as const) {
      const figures = progressFigures(counts(finished), { ...consumed }, total, elapsed);
      for (const value of Object.values(figures)) expect(Number.isFinite(value)).toBe(true);
      expect(figures.fraction ?? 0).toBeLessThanOrEqual(1);
    }
    expect(duration(45)).toBe('45s');
    expect(duration(185)).toBe('3m05s');
    expect(duration(3720)).toBe('1h02m');
  });

  it('on a terminal, through a service: the percentage never runs ahead of the rows finished', async () => {
    const home = await tempDir();
    const server = await startServer(home);
    try {
      const input = join(home, 'rows.ndjson');
      // Rows of one size: the share of bytes finished is the share of rows finished.
      await writeFile(input, Array.from({ length: 20_000 }, (_, i) => `{"id":${10_000 + i},"name":"p"}\n`).join(''));
      const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
      const output = await onTerminal(`${process.execPath} ${BIN} import ${input} --concurrency 4`, env);
      expect(output).not.toMatch(/NaN|Infinity|NF/);
      const frames = [...output.matchAll(/(\d+)% \| ([\d,]+) rows \| [\d,]+\/s \| \d+ failed \| ETA (\S+)/g)].map(
        (match) => ({ percent: Number(match[1]), rows: Number((match[2] as string).replaceAll(',', '')) }),
      );
      expect(frames.length).toBeGreaterThan(2);
      for (const { percent, rows } of frames) expect(percent).toBeLessThanOrEqual(Math.floor((rows * 100) / 20_000));
      expect(frames.some(({ percent }) => percent > 0 && percent < 100)).toBe(true);
      expect(output).toMatch(/Imported.* 20,000 rows into .*: 20,000 created, 0 skipped, 0 failed/);
    } finally {
      await server.stop();
    }
  });
});
