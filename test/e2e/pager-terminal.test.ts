import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { checkpointedStore } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { onTerminal, type Typing } from '../helpers/terminal.js';

/** The colours plants adds on a terminal (SGR sequences), taken out to read the text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const uncoloured = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').replaceAll('\r\n', '\n');

/** The table of plants 1 and 2, as a terminal shows it. */
const TABLE = 'ID  NAME  TAG\n 1  p1    herb\n 2  p2    herb\n';
/** What the fake pager says first, where the environment sets neither LESS nor LV. */
const STARTED = 'PAGER START args=[] LESS=[FRX] LV=[-c]\n';

/** A fake pager: says it started (its arguments, LESS and LV), runs `body` on what it is given, says it ended. */
function pagerScript(body: string): string {
  const started = 'echo "PAGER START args=[$*] LESS=[$LESS] LV=[$LV]"';
  return `#!/bin/sh\n${started}\n: > "$(dirname "$0")/ran"\n${body}\necho "PAGER END"\n`;
}

function withoutVariable(env: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([key]) => key !== name));
}

/** A local store of `count` plants, and plants list on a terminal there, with a fake pager of `body` at `pager`. */
async function setUp(count: number, body = 'cat') {
  const home = await tempDir();
  const store = join(home, 'plants.json');
  const plants = Array.from({ length: count }, (_, i) => ({ id: BigInt(i + 1), name: `p${i + 1}`, tag: 'herb' }));
  await checkpointedStore(store, plants);
  // A path with a blank: PAGER is split into words as a shell would, quotes kept together.
  await mkdir(join(home, 'fake pager'));
  const pager = join(home, 'fake pager', 'pager.sh');
  await writeFile(pager, pagerScript(body));
  await chmod(pager, 0o755);
  // PAGER names the pager here, not the PLANTS_PAGER=cat of every other test.
  const env = withoutVariable(isolatedEnv(home, { PLANTS_STORE: store, PAGER: `'${pager}'` }), 'PLANTS_PAGER');
  /** `plants list --local <args>` on a terminal: what the terminal showed, and plants' exit code. */
  const list = async (args = '', extraEnv: Record<string, string> = {}, typing?: Typing) => {
    // The shell traps Ctrl-C (its SIGINT too), to go on and tell plants' exit code; plants starts with the default.
    const command = `trap : INT; ${process.execPath} ${BIN} list --local ${args}; echo "exit $?"`;
    const output = uncoloured(await onTerminal(command, { ...env, ...extraEnv }, typing));
    return { output, code: Number(/exit (\d+)/.exec(output)?.[1]) };
  };
  return { home, env, pager, ran: () => existsSync(join(home, 'fake pager', 'ran')), list };
}

describe.runIf(process.platform === 'linux')('plants list on a terminal goes through a pager, as gh and git', () => {
  it('writes its table to PAGER (LESS=FRX and LV=-c unless set), and exits once the pager has', async () => {
    const t = await setUp(2, 'cat\nsleep 0.3');
    const { output, code } = await t.list();
    expect(output).toContain(`${STARTED}${TABLE}PAGER END\nexit 0\n`);
    expect(code).toBe(0);
    // The person's own LESS is theirs.
    expect((await t.list('', { LESS: '-i' })).output).toContain('LESS=[-i]');
  });

  it('takes PLANTS_PAGER over PAGER, split into words as a shell splits them', async () => {
    const t = await setUp(1);
    const { output } = await t.list('', { PLANTS_PAGER: `"${t.pager}" -x 'two words' three\\ more`, PAGER: 'false' });
    expect(output).toContain('PAGER START args=[-x two words three more]');
  });

  it.each([
    ['--no-pager', '--no-pager', {}],
    ['PLANTS_PAGER=cat', '', { PLANTS_PAGER: 'cat' }],
    ['PLANTS_PAGER empty', '', { PLANTS_PAGER: '' }],
    ['PAGER=cat', '', { PAGER: 'cat' }],
    ['PAGER empty', '', { PAGER: '' }],
  ])('writes straight to the terminal with %s', async (_what, args, extraEnv) => {
    const t = await setUp(2);
    const { output, code } = await t.list(args, extraEnv);
    expect(output).toContain(`${TABLE}exit 0\n`);
    expect(t.ran()).toBe(false);
    expect(code).toBe(0);
  });

  it('never pages into a pipe or a file: stdout alone decides', async () => {
    const t = await setUp(2);
    const piped = await runPlants(['list', '--local'], t.env);
    expect(piped).toMatchObject({ code: 0, stdout: '1\tp1\therb\n2\tp2\therb\n', stderr: '' });
    const intoFile = await t.list(`--format ndjson > ${join(t.home, 'out.ndjson')}`);
    expect(intoFile.code).toBe(0);
    expect(t.ran()).toBe(false);
  });

  it('pages --json and --format output on a terminal too: it is all long', async () => {
    const t = await setUp(2);
    const { output } = await t.list('--format ndjson');
    const ndjson = '{"id":1,"name":"p1","tag":"herb"}\n{"id":2,"name":"p2","tag":"herb"}\n';
    expect(output).toContain(`${STARTED}${ndjson}PAGER END\nexit 0\n`);
  });

  it('ends quietly, exit 0, when the pager is quit before the end (q in less), reading no more', async () => {
    const t = await setUp(50_000, 'head -n 3');
    const { output, code } = await t.list();
    expect(output).toContain('PAGER START');
    expect(output).toContain(' 2  p2');
    expect(output).not.toContain('p40000');
    expect(output).not.toMatch(/error|EPIPE/i);
    expect(output).toMatch(/PAGER END\nexit 0\n/);
    expect(code).toBe(0);
  });

  it('ignores Ctrl-C while the pager runs: the pager takes it, and plants ends after it, exit 0', async () => {
    // The pager reads a little, then waits (10 s at most) until Ctrl-C, which it takes as q.
    const onInterrupt = `trap 'echo "PAGER GOT INT"; echo "PAGER END"; exit 0' INT`;
    const waiting = 'echo "PAGER WAITING"\nfor i in $(seq 100); do sleep 0.1; done';
    const t = await setUp(50_000, `${onInterrupt}\nhead -n 2\n${waiting}`);
    const { output, code } = await t.list('', {}, { after: 'PAGER WAITING', keys: '\u0003' });
    expect(output).toMatch(/PAGER GOT INT\nPAGER END\nexit 0\n/);
    expect(code).toBe(0);
  });

  it('writes to the terminal where a pager cannot start: with a warning if it was named, else quietly', async () => {
    const t = await setUp(2);
    const missing = join(t.home, 'no-such-pager');
    const named = await t.list('', { PLANTS_PAGER: `${missing} -R` });
    const instead = 'writing to the terminal instead (PLANTS_PAGER=cat turns paging off)';
    const cannot = `plants: could not start the pager ${missing} -R (PLANTS_PAGER): no such program`;
    expect(named.output).toContain(`${cannot}; ${instead}\n`);
    expect(named.output).toContain(`${TABLE}exit 0\n`);
    expect(named.code).toBe(0);
    // No PAGER, and no less on the PATH plants is given: the default is skipped without a word.
    const command = `PATH=${join(t.home, 'empty')} ${process.execPath} ${BIN} list --local; echo "exit $?"`;
    const unnamed = await onTerminal(command, withoutVariable(t.env, 'PAGER'));
    expect(uncoloured(unnamed)).toBe(`${TABLE}exit 0\n`);
  });
});
