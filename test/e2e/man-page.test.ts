import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { manPage } from '../../src/cli/man-page.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string; man?: string[] };
const PAGE = `${ROOT}dist/man/plants.1`;

/** Whether this machine has groff: the roff is checked with it where it has (a fresh machine may not). */
const hasGroff = spawnSync('groff', ['--version'], { encoding: 'utf8' }).status === 0;

describe('the man page, as built and shipped', () => {
  it('is built into dist/man/plants.1 from the declarations of this tree', () => {
    expect(readFileSync(PAGE, 'utf8')).toBe(manPage(PACKAGE.version));
  });

  it('is installed with the package: package.json "man" names it, and npm pack ships it', () => {
    expect(PACKAGE.man).toEqual(['./dist/man/plants.1']);
    // What the package would hold; --ignore-scripts: pack's own build is npm test's, done already.
    const argv = ['pack', '--dry-run', '--json', '--ignore-scripts'];
    const pack = spawnSync('npm', argv, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(pack.status, pack.stderr).toBe(0);
    const [{ files }] = JSON.parse(pack.stdout) as [{ files: { path: string }[] }];
    expect(files.map((file) => file.path)).toContain('dist/man/plants.1');
  });

  it.runIf(hasGroff)('is roff groff reads without a warning, and shows every command and exit code', () => {
    const check = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-z', PAGE], { encoding: 'utf8' });
    expect({ status: check.status, stderr: check.stderr }).toEqual({ status: 0, stderr: '' });
    // As man shows it, without its bold and underline (-P-cbou: no overstriking).
    const shown = spawnSync('groff', ['-man', '-Tutf8', '-ww', '-P-cbou', PAGE], { encoding: 'utf8' });
    expect(shown.stderr).toBe('');
    for (const heading of ['NAME', 'SYNOPSIS', 'OPTIONS', 'PLANT COMMANDS', 'EXIT STATUS', 'ENVIRONMENT', 'SEE ALSO']) {
      expect(shown.stdout).toMatch(new RegExp(`^${heading}$`, 'm'));
    }
    const commands = ['create', 'get', 'list', 'update', 'delete', 'import', 'serve', 'login', 'logout'];
    for (const command of [...commands, 'auth status', 'config get', 'completion', 'help']) {
      expect(shown.stdout).toMatch(new RegExp(`^ {3}plants ${command}$`, 'm'));
    }
    expect(shown.stdout).toContain('--yes');
    expect(shown.stdout).toContain('--no-pager');
    expect(shown.stdout).toMatch(/^ {7}129, 130, 143$/m);
  });
});
