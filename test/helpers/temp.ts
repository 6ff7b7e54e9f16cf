import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

const made: string[] = [];
const madeForFile: string[] = [];

/** A fresh directory under the system temp dir, removed after the test. */
export async function tempDir(prefix = 'plants-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * The same for the tests of a file (made in a beforeAll, for a server they share): removed after all of them, and
 * after the afterAll that stops the server, which would otherwise write into it again once it was gone.
 */
export async function tempDirForFile(prefix = 'plants-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  madeForFile.push(dir);
  return dir;
}

const remove = (dirs: string[]) => Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));

afterEach(async () => {
  await remove(made);
});

afterAll(async () => {
  await remove(madeForFile);
});
