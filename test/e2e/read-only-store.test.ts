import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeDatabase } from '../../src/store/file/database-file.js';
import { BIN, finished, isolatedEnv, type ProcessResult } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

// A store the user made read-only (chmod 444) is refused for every write (exit 4, store_io), by
// root as well, whom the kernel would let write it; reads work, and leave every file as it was.

const isRoot = process.getuid?.() === 0;
/** nobody: an unprivileged user the tests run as, where they run as root and may switch. */
const NOBODY = 65534;

/** Runs the real bin/plants.cjs as `uid` (itself when undefined). */
function runAs(uid: number | undefined, args: string[], home: string, input = ''): Promise<ProcessResult> {
  const user = uid === undefined ? {} : { uid, gid: uid };
  const child = spawn(process.execPath, [BIN, ...args], {
    env: isolatedEnv(home),
    stdio: ['pipe', 'pipe', 'pipe'],
    ...user,
  });
  return finished(child, input);
}

/** Each file of the directory: its mode and a digest of its bytes. */
function filesOf(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const info = statSync(path);
    files[name] =
      `${(info.mode & 0o7777).toString(8)} ` +
      `${info.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'not a file'}`;
  }
  return files;
}

/**
 * A journal past the fold threshold (100,000 lines, more than the store file has plants), and past what a reader
 * indexes.
 */
const BIG_JOURNAL = Array.from({ length: 100_001 }, (_, i) => `{"id":${1000 + i},"name":"plant ${1000 + i}"}\n`).join(
  '',
);

const layouts = [
  {
    name: 'the store file and a journal due to be folded, both at 0444',
    store: 0o444,
    journal: 0o444,
    refused: 'read-only (mode 0444)',
  },
  {
    name: 'the store file at 0444, and no journal yet',
    store: 0o444,
    journal: undefined,
    refused: 'read-only (mode 0444)',
  },
  {
    name: 'its journal at 0444 beside a store file at 0644',
    store: 0o644,
    journal: 0o444,
    refused: 'read-only (its journal JOURNAL has mode 0444)',
  },
] as const;

const users = [
  { name: 'root', uid: undefined, runs: isRoot },
  { name: 'an unprivileged user', uid: NOBODY, runs: isRoot },
  { name: 'this user', uid: undefined, runs: !isRoot },
] as const;

describe.each(users.filter((user) => user.runs))('a store made read-only, written by $name', ({ uid }) => {
  it.each(layouts)('refuses every write with $name (exit 4), serves reads, and changes no file', async (layout) => {
    const home = await tempDir();
    const dir = join(home, 'store');
    const store = join(dir, 'plants.json');
    const journal = `${store}.journal`;
    mkdirSync(dir);
    writeFileSync(
      store,
      encodeDatabase([
        { id: 1n, name: 'Fern' },
        { id: 2n, name: 'Oak', tag: 'tree' },
      ]),
    );
    if (layout.journal !== undefined) writeFileSync(journal, BIG_JOURNAL);
    if (uid !== undefined)
      for (const path of [home, dir, store, ...(layout.journal === undefined ? [] : [journal])])
        chownSync(path, uid, uid);
    chmodSync(store, layout.store);
    if (layout.journal !== undefined) chmodSync(journal, layout.journal);
    const before = filesOf(dir);
    const refusal =
      `error: the store ${store} is ${layout.refused.replace('JOURNAL', journal)}: nothing was written\n` +
      'hint: reads work as they are; to write to it, make it writable again (chmod u+w ' +
      `${layout.store === 0o444 ? store : journal}` +
      `${layout.store === 0o444 && layout.journal !== undefined ? ` ${journal}` : ''})\n`;

    for (const args of [
      ['create', '--id', '3', '--name', 'Ivy'],
      ['update', '1', '--name', 'Fern again'],
      ['delete', '2'],
      // A delete that would change nothing is refused all the same: the store is not to be written.
      ['delete', '99'],
    ]) {
      const result = await runAs(uid, [...args, '--local', '--store', store], home);
      expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 4, stderr: refusal });
    }
    const imported = await runAs(
      uid,
      ['import', '-', '--local', '--store', store, '--format', 'ndjson'],
      home,
      '{"id":5,"name":"Moss"}\n',
    );
    expect(imported.code).toBe(4);
    expect(imported.stderr).toContain(`error: stopped: ${refusal.slice('error: '.length)}`);

    const got = await runAs(uid, ['get', '2', '--local', '--store', store, '--json'], home);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual({ id: 2, name: 'Oak', tag: 'tree' });
    const listed = await runAs(uid, ['list', '--local', '--store', store, '--format', 'ndjson'], home);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n').length - 1).toBe(layout.journal === undefined ? 2 : 100_003);

    const served = await runAs(uid, ['serve', '--port', '0', '--token', 'server-token-123456', '--store', store], home);
    expect({ code: served.code, stdout: served.stdout, stderr: served.stderr }).toEqual({
      code: 4,
      stdout: '',
      stderr: refusal,
    });

    // No file changed, none was made (no journal, index, temporary file or lock), no mode changed.
    expect(filesOf(dir)).toEqual(before);
  });
});

describe.runIf(isRoot)("another user's store", () => {
  it('is refused for writes to a user the kernel would not let write it, though its mode lets its owner', async () => {
    const home = await tempDir();
    const dir = join(home, 'store');
    const store = join(dir, 'plants.json');
    mkdirSync(dir);
    // root's file in nobody's directory: unchecked, nobody would add a journal of its own beside it.
    writeFileSync(store, encodeDatabase([{ id: 1n, name: 'Fern' }]), { mode: 0o644 });
    for (const path of [home, dir]) chownSync(path, NOBODY, NOBODY);
    const before = filesOf(dir);
    const created = await runAs(NOBODY, ['create', '--id', '3', '--name', 'Ivy', '--local', '--store', store], home);
    expect({ code: created.code, stderr: created.stderr }).toEqual({
      code: 4,
      stderr:
        `error: the store ${store} is read-only for this user (mode 0644: permission denied): nothing was written\n` +
        `hint: reads work as they are; to write to it, run plants as a user who may write ${store}\n`,
    });
    expect((await runAs(NOBODY, ['get', '1', '--local', '--store', store], home)).code).toBe(0);
    expect(filesOf(dir)).toEqual(before);
  });
});
