import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testContext } from '../helpers/test-context.js';

describe('delete --from says in words what --json counts (issue 40)', () => {
  it('ids already gone: failed in both, of which not found; exit 1, as the README says for failed rows', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--id', '1', '--name', 'Fern')).toBe(0);
    const input = join(t.dir, 'ids.txt');
    await writeFile(input, '1\n2\n3\n4\n5\n6\nxyz\n');
    const summary = async () => {
      const before = t.stderr().length;
      expect(await t.run('delete', '--local', '--from', input, '--yes')).toBe(1);
      return t.stderr().slice(before).split('\n')[0];
    };
    // It said `1 deleted, 5 not found, 1 failed`, where --json says `"failed": 6`.
    expect(await summary()).toMatch(/: 1 deleted, 0 skipped, 6 failed \(5 not found\)$/);
    // Again, every id gone: it said `0 deleted, 6 not found, 1 failed`.
    expect(await summary()).toMatch(/: 0 deleted, 0 skipped, 7 failed \(6 not found\)$/);
    const out = t.stdout().length;
    expect(await t.run('delete', '--local', '--from', input, '--json', '--yes')).toBe(1);
    const counts = { read: 7, deleted: 0, skipped: 0, valid: 0, failed: 7, unknown: 0, notSent: 0 };
    expect(JSON.parse(t.stdout().slice(out)).counts).toEqual(counts);
  });

  it('ids already gone, with --on-missing skip: skipped, in both; exit 0', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--id', '1', '--name', 'Fern')).toBe(0);
    const input = join(t.dir, 'ids.txt');
    await writeFile(input, '1\n2\n3\n');
    const before = t.stderr().length;
    expect(await t.run('delete', '--local', '--from', input, '--on-missing', 'skip', '--yes')).toBe(0);
    expect(t.stderr().slice(before)).toMatch(/: 1 deleted, 2 skipped \(not there\), 0 failed\n$/);
    const out = t.stdout().length;
    expect(await t.run('delete', '--local', '--from', input, '--on-missing', 'skip', '--json', '--yes')).toBe(0);
    // It said `1 deleted, 2 not there (skipped), 0 failed`.
    expect(JSON.parse(t.stdout().slice(out)).counts).toMatchObject({ read: 3, deleted: 0, skipped: 3, failed: 0 });
  });
});
