import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli-process.js';
import { consoleSteps, lineMatches, shellBlocks, type ShellBlock } from '../helpers/readme-blocks.js';

/**
 * The README, followed top to bottom as a new user would: every shell example runs, in order, as
 * written, with `plants` on the PATH, in a fresh home directory (config, data, store), against a
 * `plants serve` on this machine that the test runs in its own terminal, as the README says to;
 * a console example must print what it shows. State carries from one example to the next through
 * files only, as it would for a reader who opens a new terminal.
 */
const README = new URL('../../README.md', import.meta.url);
const blocks = shellBlocks(readFileSync(README, 'utf8'));

let home: string;
let env: Record<string, string>;
let server: ChildProcess;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'plants-readme-'));
  const bin = join(home, 'bin');
  mkdirSync(bin);
  mkdirSync(join(home, 'work'));
  symlinkSync(BIN, join(bin, 'plants'));
  env = {
    PATH: [bin, dirname(process.execPath), process.env.PATH ?? ''].join(':'),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
  };
  // The README's `plants serve`, started as it says (no token given: it keeps its own), on any free
  // port: the examples reach it through the base URL setting.
  server = spawn(join(bin, 'plants'), ['serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  const [url] = (await once(createInterface({ input: server.stdout! }), 'line')) as [string];
  env.PLANTS_BASE_URL = url;
});

afterAll(async () => {
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  await rm(home, { recursive: true, force: true });
});

/** Runs a script in bash in the work directory, stderr merged into stdout as a terminal shows both. */
function bash(script: string): { status: number | null; output: string } {
  const run = spawnSync('bash', ['-c', `exec 2>&1\n${script}`], {
    cwd: join(home, 'work'),
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: run.stdout };
}

function title(block: ShellBlock): string {
  const first = block.body.split('\n').find((line) => line.trim() !== '' && !line.startsWith('#')) ?? '';
  return `README line ${block.line}: ${first.replace(/^\$ /, '').slice(0, 60)}`;
}

describe('the README, top to bottom', () => {
  it('has shell examples to run, each skipped one saying why', () => {
    expect(blocks.filter((block) => block.skip === undefined).length).toBeGreaterThan(10);
  });

  for (const block of blocks.filter((b) => b.skip === undefined)) {
    if (block.kind === 'sh') {
      it(title(block), () => {
        const { status, output } = bash(`set -euo pipefail\n${block.body}`);
        expect(status, `it printed:\n${output}`).toBe(0);
      });
      continue;
    }
    it(title(block), () => {
      const steps = consoleSteps(block.body);
      // One shell for the session, so that `$ echo $?` sees the command before it; a NUL byte
      // before each command separates what each printed.
      const script = steps.map((step) => `__status=$?; printf '\\0'; (exit $__status); ${step.command}`).join('\n');
      const printed = bash(script).output.split('\0').slice(1);
      steps.forEach((step, i) => {
        // Trailing blanks aside: an editor may strip them from the README (a plant without a tag
        // ends its line with a tab).
        const lines = (printed[i] ?? '')
          .replace(/\n$/, '')
          .split('\n')
          .map((line) => line.trimEnd());
        const shown = (step.expected.length === 0 ? [''] : step.expected).map((line) => line.trimEnd());
        const matches =
          lines.length === shown.length && shown.every((line, j) => lineMatches(line, lines[j] as string));
        expect(matches ? shown.join('\n') : (printed[i] ?? '').replace(/\n$/, ''), `$ ${step.command}`).toBe(
          shown.join('\n'),
        );
      });
    });
  }
});
