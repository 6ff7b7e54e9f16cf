import { closeSync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Makes a file's creation, rename or removal durable: fsync of the directory that holds it.
 * Synchronously: it comes once per rewrite or new journal, and three trips through libuv's thread
 * pool cost a create --local more than the fsync (~1 ms here).
 */
export function syncDirectory(path: string): void {
  const directory = openSync(dirname(path), 'r');
  try {
    fsyncSync(directory);
  } finally {
    closeSync(directory);
  }
}
