import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env } from './figure.js';
import { BIN, mustRun } from './process.js';

/** The directories of this run: a full run makes hundreds, some of 100 MB, removed as it ends. */
const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory under the system temp dir, removed when the run ends. */
export function benchDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `plants-bench-${name}-`));
  made.push(dir);
  return dir;
}

/**
 * An NDJSON file of `rows` NewPlants with ids from 1, as a user's export would look; `renamed`:
 * the same ids, each with another name and tag (what an import that updates them brings).
 */
export function ndjsonFile(dir: string, rows: number, renamed = false): string {
  const path = join(dir, `plants-${rows}${renamed ? '-renamed' : ''}.ndjson`);
  const lines: string[] = [];
  for (let id = 1; id <= rows; id += 1)
    lines.push(
      renamed
        ? `{"id":${id},"name":"renamed plant ${id}","tag":"bench2"}`
        : `{"id":${id},"name":"plant ${id}","tag":"bench"}`,
    );
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** A CSV file of `rows` plants with ids from 1 (a header row id,name,tag), as a spreadsheet's export would look. */
export function csvFile(dir: string, rows: number): string {
  const path = join(dir, `plants-${rows}.csv`);
  const lines = ['id,name,tag'];
  for (let id = 1; id <= rows; id += 1) lines.push(`${id},plant ${id},bench`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/** A store file holding `count` plants (ids from 1), in the format plants writes. */
export function storeFile(dir: string, count: number): string {
  const path = join(dir, 'store.json');
  const lines: string[] = [];
  for (let id = 1; id <= count; id += 1) lines.push(`    {"id":${id},"name":"plant ${id}","tag":"bench"}`);
  writeFileSync(path, `{\n  "plantStore": 1,\n  "plants": [\n${lines.join(',\n')}\n  ]\n}\n`);
  return path;
}

/**
 * The store `plants import --local` of `rows` rows (ids from 1) leaves: a store file and a journal
 * of the rows since its last fold. Every command reads both; storeFile's one folded file is a store
 * only a fold leaves.
 */
export async function importedStore(dir: string, rows: number): Promise<string> {
  const path = join(dir, 'store.json');
  await mustRun(
    process.execPath,
    [BIN, 'import', ndjsonFile(dir, rows), '--local'],
    env(dir, { PLANTS_STORE: path }),
    'ignore',
  );
  return path;
}
