import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordServe } from '../../src/cli/config/serve-record.js';
import { keepServerToken } from '../../src/cli/config/server-token.js';
import { faultyFs, failingFs } from '../helpers/faulty-fs.js';
import { testContext } from '../helpers/test-context.js';
import { tempDir } from '../helpers/temp.js';

/**
 * Every file of a command goes through the context's file system (src/fs/file-system.ts): each
 * path here is failed through it, and says so in words, with nothing lost.
 */
describe('the file-system seam fails every file a command touches', () => {
  it('a config file that cannot be read: named, with the reason, exit 2', async () => {
    const fs = failingFs(['readFileSync'], 'EIO', (path) => String(path).endsWith('config.json'));
    const t = await testContext({ fs });
    expect(await t.run('config', 'list')).toBe(2);
    expect(t.stderr()).toBe(`error: cannot read the config file ${join(t.ctx.configDir, 'config.json')} (EIO)\n`);
    expect(fs.failed).toBeGreaterThan(0);
  });

  it('a config file on a full disk: exit 4, said in words, the file as it was', async () => {
    const fs = faultyFs(0);
    const t = await testContext({ fs });
    const path = join(t.ctx.configDir, 'config.json');
    mkdirSync(t.ctx.configDir, { recursive: true, mode: 0o700 });
    writeFileSync(path, '{\n\t"timeout": "12"\n}\n', { mode: 0o600 });
    expect(await t.run('config', 'set', 'base-url', 'http://127.0.0.1:9000')).toBe(4);
    expect(t.stderr()).toMatch(
      new RegExp(`^error: could not write the config file ${path}: no space left on device \\(ENOSPC\\)\\n`),
    );
    expect(readFileSync(path, 'utf8')).toBe('{\n\t"timeout": "12"\n}\n');
    expect(readdirSync(t.ctx.configDir)).toEqual(['config.json']);
  });

  it("serve's token file on a full disk: config_io, no temporary file left", async () => {
    const dataDir = await tempDir();
    expect(() => keepServerToken({ dataDir, fs: faultyFs(0) })).toThrow(
      /could not write the server token file .*: no space left on device \(ENOSPC\)/,
    );
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("serve's record of itself on a full disk: thrown, no temporary file left", async () => {
    const dataDir = await tempDir();
    expect(() =>
      recordServe({ dataDir, fs: faultyFs(0) }, { pid: process.pid, urls: ['http://127.0.0.1:1'] }, 1),
    ).toThrow(/ENOSPC/);
    expect(readdirSync(join(dataDir, 'serving'))).toEqual([]);
  });

  it('an import whose input cannot be read part way: the rows done, then the input and why, exit 2', async () => {
    let reads = 0;
    const fs = failingFs(['read'], 'EIO', () => (reads += 1) > 1);
    const t = await testContext({ fs });
    const input = join(t.dir, 'plants.ndjson');
    writeFileSync(
      input,
      Array.from({ length: 20_000 }, (_, i) => `{"id":${i + 1},"name":"Fern ${'x'.repeat(40)}"}\n`).join(''),
    );
    const code = await t.run('import', input, '--local', '--store', t.storePath);
    // As for input that turns unreadable part way (a CSV quote never closed): the account of the rows done, and why it
    // stopped.
    expect(t.stderr()).toMatch(/^Imported [\d,]+ rows into .*: [\d,]+ created, 0 skipped, 0 failed\n/);
    expect(t.stderr()).toMatch(
      new RegExp(`^error: stopped: ${input}: could not be read on: input/output error \\(EIO\\)\n`, 'm'),
    );
    expect(t.stderr()).not.toMatch(/internal error/);
    expect(code).toBe(2);
  });

  it('an import whose --rejects file fills the disk: the summary says the file could not be written', async () => {
    const fs = faultyFs(0);
    const t = await testContext({ fs });
    const input = join(t.dir, 'plants.ndjson');
    writeFileSync(input, '{"id":1,"name":"Fern"}\n{"id":"x"}\n');
    const code = await t.run(
      'import',
      input,
      '--dry-run',
      '--local',
      '--store',
      t.storePath,
      '--rejects',
      join(t.dir, 'rejects.ndjson'),
    );
    expect(t.stderr()).toMatch(
      /could not write the --rejects file .*rejects\.ndjson: no space left on device \(ENOSPC\)/,
    );
    expect(code).not.toBe(0);
  });

  it('a store that cannot be read: the command says so, exit 4, the store as it was', async () => {
    const t = await testContext();
    expect(await t.run('create', '--local', '--store', t.storePath, '--id', '1', '--name', 'Fern')).toBe(0);
    const files = () =>
      readdirSync(join(t.dir, 'data')).map((name) => [name, readFileSync(join(t.dir, 'data', name), 'utf8')]);
    const before = files();
    const fs = failingFs(
      ['readSync', 'readFileSync'],
      'EIO',
      (first) => typeof first === 'number' || String(first).startsWith(t.storePath),
    );
    const faulty = await testContext({ fs });
    expect(await faulty.run('get', '--local', '--store', t.storePath, '--id', '1')).toBe(4);
    expect(faulty.stderr()).toMatch(/EIO/);
    expect(fs.failed).toBeGreaterThan(0);
    expect(files()).toEqual(before);
  });
});
