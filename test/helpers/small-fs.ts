import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Whether this process may mount a file system of its own (root on Linux: CI and the project's
 * machines). Elsewhere the full-disk tests that need one are skipped, and the injected-fs tests
 * (test/store/short-writes.test.ts) still run.
 */
export const canMount = process.platform === 'linux' && process.getuid?.() === 0;

const mounted: string[] = [];

/** A real tmpfs of `bytes`, mounted on a fresh directory, unmounted after the test. */
export function smallFileSystem(bytes: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'plants-small-fs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir]);
  mounted.push(dir);
  return dir;
}

/** Bytes free on the file system of `dir`. */
export function freeBytes(dir: string): number {
  const info = statfsSync(dir);
  return info.bavail * info.bsize;
}

/** Fills the file system of `dir` with a file until about `leave` bytes are free. */
export function fillUntil(dir: string, leave: number): void {
  const filler = freeBytes(dir) - leave;
  if (filler > 0) writeFileSync(join(dir, 'filler'), Buffer.alloc(filler));
}

afterEach(() => {
  for (const dir of mounted.splice(0)) {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});
