import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lockStore } from '../../src/store/file/store-lock.js';
import { exited, isolatedEnv, startPlants } from './cli-process.js';
import { tempDir } from './temp.js';
import { waitFor } from './wait-for.js';

/**
 * `plants import --local --rejects` of `rows` (NDJSON), started while another process holds the store's lock, kept
 * fresh: once every row is read, the import waits for the lock to write them (up to 30 s), and says so after a second.
 * Resolves once it has said so, so that a signal sent then comes during that wait, whatever the machine's load. The
 * caller releases `lock`.
 */
export async function importWaitingForLock(rows: string) {
  const home = await tempDir();
  const store = join(home, 'plants.json');
  const lock = await lockStore(store, 1_000);
  const rejects = join(home, 'rejects.ndjson');
  const input = join(home, 'rows.ndjson');
  await writeFile(input, rows);
  const child = startPlants(
    ['import', input, '--local', '--rejects', rejects],
    isolatedEnv(home, { PLANTS_STORE: store }),
  );
  const result = exited(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await waitFor('the import to wait for the lock', () => stderr.includes('another plants process holds its lock'));
  } catch (error) {
    child.kill('SIGKILL');
    lock.release();
    throw error;
  }
  return { store, rejects, lock, child, result, stderr: () => stderr };
}
