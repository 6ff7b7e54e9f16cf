import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';

/**
 * What bash offers for the command line `line` (the cursor at its end), with the script
 * `plants completion bash` prints loaded as a user loads it: `source <(plants completion bash)`.
 */
function bashCompletes(line: string, cwd: string): string[] {
  const words = line.split(' ');
  const script = [
    `source <("${process.execPath}" "${BIN}" completion bash)`,
    `COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_plants',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  return execFileSync('bash', ['-c', script], { cwd, env: isolatedEnv(cwd), encoding: 'utf8' }).split('\n').filter((word) => word !== '');
}

describe('plants completion', () => {
  it('bash: loads, and completes commands, flags, flag values, files and arguments', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'garden.ndjson'), '');
    await writeFile(join(dir, 'notes.txt'), '');
    await mkdir(join(dir, 'exports'));
    expect(bashCompletes('plants ', dir)).toEqual(['create', 'get', 'list', 'delete', 'import', 'serve', 'login', 'logout', 'auth', 'config', 'completion']);
    expect(bashCompletes('plants im', dir)).toEqual(['import']);
    expect(bashCompletes('plants --no-color cr', dir)).toEqual(['create']);
    expect(bashCompletes('plants create --ta', dir)).toEqual(['--tag']);
    expect(bashCompletes('plants import --format ', dir)).toEqual(['ndjson', 'csv', 'json']);
    expect(bashCompletes('plants import --on-conflict s', dir)).toEqual(['skip']);
    expect(bashCompletes('plants import g', dir)).toEqual(['garden.ndjson']);
    expect(bashCompletes('plants import --rejects ex', dir)).toEqual(['exports']);
    // The value of --id is free text: no files offered, and it is not the file argument.
    expect(bashCompletes('plants create --id ', dir)).toEqual([]);
    expect(bashCompletes('plants import --format csv ', dir).sort()).toEqual(['exports', 'garden.ndjson', 'notes.txt']);
    expect(bashCompletes('plants config ', dir)).toEqual(['list', 'get', 'set', 'unset', 'path']);
    expect(bashCompletes('plants config get ', dir)).toEqual(['base-url', 'token', 'store', 'timeout']);
    expect(bashCompletes('plants auth status --', dir)).toEqual(['--base-url', '--token', '--timeout', '--json', '--help']);
    expect(bashCompletes('plants completion ', dir)).toEqual(['bash', 'zsh', 'fish']);
    expect(bashCompletes('plants list --format ', dir)).toEqual(['ndjson', 'csv']);
  });

  it('zsh and fish: a script for each, from the same declarations; another shell is a usage error', async () => {
    const home = await tempDir();
    const zsh = await runPlants(['completion', 'zsh'], isolatedEnv(home));
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toContain('autoload -U +X bashcompinit && bashcompinit');
    expect(zsh.stdout).toContain('complete -F _plants plants');
    const fish = await runPlants(['completion', 'fish'], isolatedEnv(home));
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain("complete -c plants -n '__fish_seen_subcommand_from import' -l format -r -f -a 'ndjson csv json'");
    expect(fish.stdout).toContain("complete -c plants -n '__fish_seen_subcommand_from import' -F");
    expect(fish.stdout).toContain("complete -c plants -n '__fish_seen_subcommand_from config; and __fish_seen_subcommand_from get' -a 'base-url token store timeout'");
    const other = await runPlants(['completion', 'powershell'], isolatedEnv(home));
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('error: no completion for "powershell": expected bash, zsh or fish');
  });

  for (const shell of ['zsh', 'fish']) {
    it.runIf(hasShell(shell))(`${shell}: the script parses`, async () => {
      const script = (await runPlants(['completion', shell], isolatedEnv(await tempDir()))).stdout;
      execFileSync(shell, ['-n'], { input: script });
    });
  }
});

function hasShell(shell: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`]);
    return true;
  } catch {
    return false;
  }
}
