import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/temp.js';
import { onTerminal } from '../helpers/terminal.js';

/**
 * What bash offers for the command line `line` (the cursor at its end), with the script
 * `plants completion bash` prints loaded as a user loads it: `source <(plants completion bash)`.
 * The words are split as bash splits them for completion (COMP_WORDBREAKS): at blanks, and
 * around each run of ':' (http://x:1 is http : //x : 1), as a real terminal shows below.
 */
function bashCompletes(line: string, cwd: string): string[] {
  const words = line
    .split(' ')
    .flatMap((word, index, all) =>
      word === '' && index === all.length - 1 ? [''] : word.split(/(:+)/).filter((piece) => piece !== ''),
    );
  const script = [
    `source <("${process.execPath}" "${BIN}" completion bash)`,
    `COMP_LINE='${line}'`,
    `COMP_POINT=${line.length}`,
    `COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_plants',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  return execFileSync('bash', ['-c', script], { cwd, env: isolatedEnv(cwd), encoding: 'utf8' })
    .split('\n')
    .filter((word) => word !== '');
}

describe('plants completion', () => {
  it('bash: loads, and completes commands, flags, flag values, files and arguments', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'garden.ndjson'), '');
    await writeFile(join(dir, 'notes.txt'), '');
    await mkdir(join(dir, 'exports'));
    expect(bashCompletes('plants ', dir)).toEqual([
      'create',
      'get',
      'list',
      'update',
      'delete',
      'import',
      'serve',
      'login',
      'logout',
      'auth',
      'config',
      'completion',
    ]);
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
    expect(bashCompletes('plants auth status --', dir)).toEqual([
      '--base-url',
      '--token',
      '--timeout',
      '--json',
      '--help',
    ]);
    expect(bashCompletes('plants completion ', dir)).toEqual(['bash', 'zsh', 'fish']);
    expect(bashCompletes('plants list --format ', dir)).toEqual(['ndjson', 'csv', 'json']);
  });

  it('bash: completes the fields after --json, one after another, where --json takes them', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'garden.ndjson'), '');
    expect(bashCompletes('plants list --json ', dir)).toEqual(['id', 'name', 'tag']);
    expect(bashCompletes('plants list --json n', dir)).toEqual(['name']);
    expect(bashCompletes('plants list --json id,', dir)).toEqual(['id,id', 'id,name', 'id,tag']);
    expect(bashCompletes('plants get 3 --json id,t', dir)).toEqual(['id,tag']);
    expect(bashCompletes('plants delete --json ', dir)).toEqual(['deleted', 'id']);
    // A list of fields is the flag's value, not the file argument: files are still offered after it.
    expect(bashCompletes('plants import --json ', dir)).toEqual(['garden.ndjson']);
    expect(bashCompletes('plants list --json id,name --', dir)).toContain('--search');
  });

  it('bash: a word with a colon (a URL) is one word, as plants reads it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'garden.ndjson'), '');
    await writeFile(join(dir, 'plants:2024.csv'), '');
    // The URL is the value of --base-url, not the file argument: files are still offered after it.
    expect(bashCompletes('plants import --base-url http://x:1 ', dir).sort()).toEqual([
      'garden.ndjson',
      'plants:2024.csv',
    ]);
    expect(bashCompletes('plants import --base-url http://x:1 g', dir)).toEqual(['garden.ndjson']);
    expect(bashCompletes('plants import --base-url http://[::1]:8080 --format ', dir)).toEqual([
      'ndjson',
      'csv',
      'json',
    ]);
    expect(bashCompletes('plants login --base-url http://127.0.0.1:8080 --', dir)).toEqual([
      '--base-url',
      '--with-token',
      '--token',
      '--no-check',
      '--json',
      '--help',
    ]);
    expect(bashCompletes('plants delete --base-url http://127.0.0.1:8080 --id 1 --on-missing ', dir)).toEqual([
      'fail',
      'skip',
    ]);
    // Completing a word with a colon in it: bash replaces only what follows its last ':'.
    expect(bashCompletes('plants import plants:', dir)).toEqual([':2024.csv']);
    expect(bashCompletes('plants import plants:2', dir)).toEqual(['2024.csv']);
  });

  it.runIf(hasShell('script'))(
    'bash at a terminal: splits the line at colons, and the script puts it together again',
    async () => {
      const dir = await tempDir();
      await writeFile(join(dir, 'garden.ndjson'), '');
      const script = join(dir, 'plants.bash');
      await writeFile(script, (await runPlants(['completion', 'bash'], isolatedEnv(dir))).stdout);
      const offered = join(dir, 'offered');
      await writeFile(
        join(dir, 'rc'),
        [
          `cd ${dir}`,
          `source ${script}`,
          `_plants_record() { _plants; printf '%s\\n' "\${COMPREPLY[@]}" > ${offered}; COMPREPLY=(); }`,
          'complete -F _plants_record plants',
          "PS1='ready> '",
        ].join('\n'),
      );
      // One TAB on the line, then the line cleared (Ctrl-U) and the shell left.
      await onTerminal(`bash --rcfile ${join(dir, 'rc')} -i`, isolatedEnv(dir, { INPUTRC: '/dev/null' }), {
        after: 'ready> ',
        keys: 'plants import --base-url http://x:1 \t\u0015exit\r',
      });
      expect(
        (await readFile(offered, 'utf8'))
          .split('\n')
          .filter((word) => word !== '')
          .sort(),
      ).toEqual(['garden.ndjson', 'plants.bash', 'rc']);
    },
  );

  it('zsh and fish: a script for each, from the same declarations; another shell is a usage error', async () => {
    const home = await tempDir();
    const zsh = await runPlants(['completion', 'zsh'], isolatedEnv(home));
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toContain('autoload -U +X bashcompinit && bashcompinit');
    expect(zsh.stdout).toContain('complete -F _plants plants');
    const fish = await runPlants(['completion', 'fish'], isolatedEnv(home));
    expect(fish.code).toBe(0);
    expect(fish.stdout).toContain("complete -c plants -n '__plants_is import' -l format -r -f -a 'ndjson csv json'");
    expect(fish.stdout).toContain("complete -c plants -n '__plants_is import' -F");
    expect(fish.stdout).toContain("complete -c plants -n '__plants_is config get' -a 'base-url token store timeout'");
    // Each condition names one command: `get`'s flags are not for `plants config get`, whose words
    // include get (fish's __fish_seen_subcommand_from get holds there, and after --name get).
    expect(fish.stdout).not.toContain('__fish_seen_subcommand_from');
    expect(fish.stdout).toContain("complete -c plants -n '__plants_is get' -l id -r -f");
    expect(fish.stdout).toContain("complete -c plants -n '__plants_is config' -a 'get'");
    expect(fish.stdout).toContain("complete -c plants -n '__plants_is' -a 'get'");
    // The command is found as plants reads it: flags skipped, with the value of those that take one.
    expect(fish.stdout).toContain("'create:--name'");
    expect(fish.stdout).toContain("contains -- $command[1] 'auth' 'config'");
    const fields = "complete -c plants -n '__plants_is list; and __plants_after --json' -a 'id name tag'";
    expect(fish.stdout).toContain(fields);
    const other = await runPlants(['completion', 'powershell'], isolatedEnv(home));
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('error: no completion for "powershell": expected bash, zsh or fish');
  });

  it.runIf(hasShell('fish'))('fish: completes the flags of the command typed, and only those', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'garden.ndjson'), '');
    const script = join(dir, 'plants.fish');
    await writeFile(script, (await runPlants(['completion', 'fish'], isolatedEnv(dir))).stdout);
    const completes = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${script}; complete -C '${line}'`], {
        cwd: dir,
        env: isolatedEnv(dir),
        encoding: 'utf8',
      })
        .split('\n')
        .filter((entry) => entry !== '')
        .map((entry) => entry.split('\t')[0]);
    expect(completes('plants config get --')).toEqual(['--help', '--json']);
    expect(completes('plants config get ')).toEqual(['base-url', 'store', 'timeout', 'token']);
    expect(completes('plants get --i')).toEqual(['--id']);
    expect(completes('plants create --name get --t')).toEqual(['--tag', '--timeout', '--token']);
    expect(completes('plants config ')).toEqual(['get', 'list', 'path', 'set', 'unset']);
    expect(completes('plants import ')).toEqual(['garden.ndjson', 'plants.fish']);
  });

  for (const shell of ['zsh', 'fish']) {
    it.runIf(hasShell(shell))(`${shell}: the script parses`, async () => {
      const dir = await tempDir();
      const script = join(dir, `plants.${shell}`);
      await writeFile(script, (await runPlants(['completion', shell], isolatedEnv(dir))).stdout);
      // A file, not standard input: fish (3.6) cannot read a script from the socket node gives a child as stdin.
      execFileSync(shell, ['-n', script]);
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
