import { mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirectory } from '../../src/fs/make-directory.js';
import { directorySyncsFs } from '../helpers/faulty-fs.js';
import { tempDir } from '../helpers/temp.js';

describe('makeDirectory', () => {
  it('makes every missing level with the mode, and takes one there already', async () => {
    const root = await tempDir();
    const deep = join(root, 'a', 'b', 'c');
    makeDirectory(deep, 0o700);
    for (const level of [join(root, 'a'), join(root, 'a', 'b'), deep]) expect(statSync(level).mode & 0o777).toBe(0o700);
    makeDirectory(deep, 0o700);
    mkdirSync(join(root, 'real'));
    symlinkSync('real', join(root, 'link'));
    makeDirectory(join(root, 'link', 'under'));
    expect(statSync(join(root, 'real', 'under')).isDirectory()).toBe(true);
  });

  it('syncs the parent of each level it makes, so that a power cut cannot take one away; none it found', async () => {
    const root = await tempDir();
    const fs = directorySyncsFs();
    makeDirectory(join(root, 'a', 'b', 'c'), 0o700, fs);
    expect(fs.synced).toEqual([root, join(root, 'a'), join(root, 'a', 'b')]);
    fs.synced = [];
    makeDirectory(join(root, 'a', 'b', 'c'), 0o700, fs);
    makeDirectory(join(root, 'a', 'd'), 0o700, fs);
    expect(fs.synced).toEqual([join(root, 'a')]);
  });

  it('throws the real error for a file in the way', async () => {
    const root = await tempDir();
    writeFileSync(join(root, 'file'), '');
    expect(() => makeDirectory(join(root, 'file'))).toThrow(expect.objectContaining({ code: 'EEXIST' }));
    expect(() => makeDirectory(join(root, 'file', 'under'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it.runIf(process.platform === 'linux')(
    'throws ENOENT at once for a level that cannot be made though its parent is there',
    () => {
      expect(() => makeDirectory('/proc/nonexistent/deeper')).toThrow(
        expect.objectContaining({ code: 'ENOENT', path: '/proc/nonexistent' }),
      );
    },
  );
});
