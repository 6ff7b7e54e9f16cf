import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { checkpointedStore, storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { onTerminal } from '../helpers/terminal.js';

/** The colours plants adds on a terminal (SGR sequences), taken out to read the text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const uncoloured = (text: string) => text.replace(/\u001b\[[0-9;?]*[a-zA-Z]|\u001b[78]/g, '');

const QUESTION = '? [y/N] ';
/** What delete --from says where it cannot ask, and why. */
const CANNOT_ASK = 'error: delete --from asks before it deletes, and cannot ask here';
const NO_TERMINAL = 'standard input, output and error are not all a terminal';

/** A local store of plants 1 to `count`, a file of the ids `ids` and what runs plants on a terminal there. */
async function storeOf(count: number, ids: readonly number[]) {
  const home = await tempDir();
  const store = join(home, 'plants.json');
  await checkpointedStore(
    store,
    Array.from({ length: count }, (_, i) => ({ id: BigInt(i + 1), name: `p${i + 1}` })),
  );
  const file = join(home, 'ids.txt');
  await writeFile(file, ids.map((id) => `${id}\n`).join(''));
  const env = isolatedEnv(home, { PLANTS_STORE: store });
  const ids_ = async () => [...(await storedPlants(store)).keys()].map(Number);
  /** `plants delete --local <args>` on a terminal, `keys` typed once it asks: what it showed, the exit code. */
  const onTerminalDelete = async (args: string, keys?: string, extraEnv: Record<string, string> = {}) => {
    const typing = keys === undefined ? undefined : { after: QUESTION, keys };
    // The shell traps Ctrl-C (its SIGINT too), to go on and tell plants' exit code; plants starts with the default.
    const command = `trap : INT; ${process.execPath} ${BIN} delete --local ${args}; echo "exit $?"`;
    const output = uncoloured(await onTerminal(command, { ...env, ...extraEnv }, typing));
    return { output, code: Number(/exit (\d+)/.exec(output)?.[1]) };
  };
  return { home, store, file, env, stored: ids_, onTerminalDelete };
}

describe.runIf(process.platform === 'linux')('delete --from asks on a terminal; else it needs --yes', () => {
  it.each([
    ['y', 'y\r'],
    ['YES', 'YES\r'],
    [' yes ', ' yes \r'],
  ])('on a terminal, says how many ids the file holds, and deletes them when the answer is %j', async (_, keys) => {
    const t = await storeOf(5, [1, 2, 3]);
    const { output, code } = await t.onTerminalDelete(`--from ${t.file}`, keys);
    expect(output).toContain(`Delete the 3 plants listed in ${t.file} from ${t.store}? [y/N] `);
    expect(output).toMatch(/Read 3 ids from .* 3 deleted, 0 skipped, 0 failed/);
    expect(code).toBe(0);
    expect(await t.stored()).toEqual([4, 5]);
  });

  it.each([
    ['n', 'n\r'],
    ['Enter alone', '\r'],
    ['yess', 'yess\r'],
    ['Ctrl-D (the end of input)', '\u0004'],
    ['Ctrl-C', '\u0003'],
  ])('on a terminal, any answer but yes cancels, nothing deleted, exit 2: %s', async (_answer, keys) => {
    const t = await storeOf(5, [1, 2, 3]);
    const { output, code } = await t.onTerminalDelete(`--from ${t.file}`, keys);
    expect(output).toContain('Delete the 3 plants listed in');
    expect(output).toContain('error: cancelled: nothing was deleted');
    expect(output).not.toContain('deleted,');
    expect(code).toBe(2);
    expect(await t.stored()).toEqual([1, 2, 3, 4, 5]);
  });

  it('counts a long file in full before it asks, and shows the count as a person reads it', async () => {
    const t = await storeOf(
      3,
      Array.from({ length: 25_000 }, (_, i) => i + 1),
    );
    const { output, code } = await t.onTerminalDelete(`--from ${t.file} --on-missing skip`, 'y\r');
    expect(output).toContain('Delete the 25,000 plants listed in');
    expect(output).toMatch(/3 deleted, 24,997 skipped \(not there\), 0 failed/);
    expect(code).toBe(0);
    expect(await t.stored()).toEqual([]);
  });

  it('on a terminal, asks nothing with --yes, with --dry-run, or of a file of one id', async () => {
    const t = await storeOf(5, [1, 2]);
    const yes = await t.onTerminalDelete(`--from ${t.file} --yes`);
    expect(yes.output).not.toContain(QUESTION);
    expect(yes.code).toBe(0);
    expect(await t.stored()).toEqual([3, 4, 5]);
    await writeFile(t.file, '3\n4\n');
    const dryRun = await t.onTerminalDelete(`--from ${t.file} --dry-run`);
    expect(dryRun.output).not.toContain(QUESTION);
    expect(dryRun.code).toBe(0);
    await writeFile(t.file, '3\n');
    const one = await t.onTerminalDelete(`--from ${t.file}`);
    expect(one.output).not.toContain(QUESTION);
    expect(one.code).toBe(0);
    expect(await t.stored()).toEqual([4, 5]);
    // A single delete asks nothing, as it never did.
    const single = await t.onTerminalDelete('4');
    expect(single.output).not.toContain(QUESTION);
    expect(single.output).toContain('Deleted plant 4');
    expect(await t.stored()).toEqual([5]);
  });

  it('on a terminal, --from -, stdout to a file or PLANTS_PROMPT_DISABLED need --yes: nothing deleted', async () => {
    const t = await storeOf(5, [1, 2, 3]);
    const fromStdin = await t.onTerminalDelete(`--from - < ${t.file}`);
    const noAnswer = 'error: --from - reads the ids from standard input, which leaves nothing to answer';
    expect(fromStdin.output).toContain(`${noAnswer} "delete them?" on: give --yes`);
    expect(fromStdin.code).toBe(2);
    const toFile = await t.onTerminalDelete(`--from ${t.file} > ${join(t.home, 'out.txt')}`);
    expect(toFile.output).toContain(`${CANNOT_ASK} (${NO_TERMINAL}): give --yes`);
    expect(toFile.code).toBe(2);
    const disabled = await t.onTerminalDelete(`--from ${t.file}`, undefined, { PLANTS_PROMPT_DISABLED: '1' });
    expect(disabled.output).toContain(`${CANNOT_ASK} (PLANTS_PROMPT_DISABLED is set): give --yes`);
    expect(disabled.code).toBe(2);
    for (const output of [fromStdin.output, toFile.output, disabled.output]) expect(output).not.toContain(QUESTION);
    expect(await t.stored()).toEqual([1, 2, 3, 4, 5]);
    const piped = await t.onTerminalDelete(`--from - --yes < ${t.file}`);
    expect(piped.code).toBe(0);
    expect(await t.stored()).toEqual([4, 5]);
  });

  it('in a pipe, needs --yes: a usage error before the file is read, and with --yes it deletes', async () => {
    const t = await storeOf(5, [1, 2, 3]);
    const refused = await runPlants(['delete', '--local', '--from', t.file], t.env);
    expect(refused.code).toBe(2);
    const hint = 'hint: see plants delete --help';
    expect(refused.stderr).toBe(`${CANNOT_ASK} (${NO_TERMINAL}): give --yes to delete without asking\n${hint}\n`);
    expect(refused.stdout).toBe('');
    const fromStdin = await runPlants(['delete', '--local', '--from', '-', '--json'], t.env, '1\n2\n');
    expect(fromStdin.code).toBe(2);
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ code: 'usage', error: 2001 });
    expect(await t.stored()).toEqual([1, 2, 3, 4, 5]);
    const done = await runPlants(['delete', '--local', '--from', t.file, '--yes'], t.env);
    expect(done.code).toBe(0);
    expect(await t.stored()).toEqual([4, 5]);
  });
});
