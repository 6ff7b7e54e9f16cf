import { open } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Makes a file's creation, rename or removal durable: fsync of the directory that holds it. */
export async function syncDirectory(path: string): Promise<void> {
  const directory = await open(dirname(path), 'r');
  try {
    await directory.sync();
  } finally {
    await directory.close();
  }
}
