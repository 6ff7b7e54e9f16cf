import { closeSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RenamedNotDurable, replaceFileSync, writeAll } from '../../src/fs/durable-file.js';
import { NODE_FS, type FileSystem } from '../../src/fs/file-system.js';
import { faultyFs } from '../helpers/faulty-fs.js';
import { tempDir } from '../helpers/temp.js';

const OLD = 'the store as it was\n'.repeat(100);
const NEW = Buffer.from('the new store, longer than what fits\n'.repeat(1_000));

async function withFile(): Promise<{ dir: string; path: string }> {
  const dir = await tempDir();
  const path = join(dir, 'plants.json');
  writeFileSync(path, OLD);
  return { dir, path };
}

describe('replaceFileSync', () => {
  it('writes every byte when each write is cut short, without an error', async () => {
    const { path } = await withFile();
    const fs = faultyFs(Infinity, 7);
    replaceFileSync(path, NEW, { fs });
    expect(readFileSync(path)).toEqual(NEW);
    expect(fs.writes).toBe(Math.ceil(NEW.length / 7));
  });

  it('on a full disk (a short write, then ENOSPC) throws ENOSPC, leaving the old file, no temporary one', async () => {
    const { dir, path } = await withFile();
    expect(() => replaceFileSync(path, NEW, { fs: faultyFs(NEW.length / 2) })).toThrow(
      expect.objectContaining({ code: 'ENOSPC' }),
    );
    expect(readFileSync(path, 'utf8')).toBe(OLD);
    expect(readdirSync(dir)).toEqual(['plants.json']);
  });

  it('throws ENOSPC for a write that makes no progress, rather than looping', async () => {
    const { path } = await withFile();
    const fs: FileSystem = { ...NODE_FS, writeSync: (() => 0) as FileSystem['writeSync'] };
    expect(() => replaceFileSync(path, NEW, { fs })).toThrow(expect.objectContaining({ code: 'ENOSPC' }));
    expect(readFileSync(path, 'utf8')).toBe(OLD);
  });

  it(
    'checks the size of the temporary file before it replaces anything (a file system that claims more than it ' +
      'wrote)',
    async () => {
      const { dir, path } = await withFile();
      const lying: FileSystem = {
        ...NODE_FS,
        writeSync: ((fd: number, buffer: Uint8Array, offset: number, length: number) => {
          NODE_FS.writeSync(fd, buffer, offset, Math.ceil(length / 2));
          return length;
        }) as FileSystem['writeSync'],
      };
      expect(() => replaceFileSync(path, NEW, { fs: lying })).toThrow(/holds \d+ of 37000 bytes/);
      expect(readFileSync(path, 'utf8')).toBe(OLD);
      expect(readdirSync(dir)).toEqual(['plants.json']);
    },
  );

  it('keeps the mode of the file it replaces, and gives a new file the mode asked for', async () => {
    const { dir, path } = await withFile();
    NODE_FS.fchmodSync(NODE_FS.openSync(path, 'r'), 0o640);
    replaceFileSync(path, NEW);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    const secret = join(dir, 'config.json');
    replaceFileSync(secret, '{}', { mode: 0o600 });
    expect(statSync(secret).mode & 0o777).toBe(0o600);
  });

  it('says the file may be in place when only the directory fsync fails', async () => {
    const { path } = await withFile();
    let fsyncs = 0;
    const fs: FileSystem = {
      ...NODE_FS,
      fsyncSync: (fd) => {
        fsyncs += 1;
        if (fsyncs === 2) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
        NODE_FS.fsyncSync(fd);
      },
    };
    expect(() => replaceFileSync(path, NEW, { fs })).toThrow(RenamedNotDurable);
    expect(readFileSync(path)).toEqual(NEW);
  });
});

describe('writeAll', () => {
  it('loops on short writes, and fails with ENOSPC once nothing fits', async () => {
    const path = join(await tempDir(), 'journal');
    const fd = openSync(path, 'a');
    try {
      await writeAll(faultyFs(Infinity, 500), fd, NEW);
      expect(readFileSync(path)).toEqual(NEW);
      await expect(writeAll(faultyFs(10), fd, NEW)).rejects.toMatchObject({ code: 'ENOSPC' });
    } finally {
      closeSync(fd);
    }
  });
});
