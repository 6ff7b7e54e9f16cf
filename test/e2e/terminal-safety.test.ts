import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { startServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { onTerminal } from '../helpers/terminal.js';
import { waitFor } from '../helpers/wait-for.js';

// A name may hold anything the contract allows, escape sequences included: plants stores it
// exactly, and shows it escaped wherever it prints it for people.
const NAME = 'Fern\u001b[2J\u001b]0;pwned\u0007\r\nforged line\u202e';
const SHOWN = 'Fern\\u001b[2J\\u001b]0;pwned\\u0007\\r\\nforged line\\u202e';

/** What of the name would act on a terminal if it reached it raw (plants itself sends none of it). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /\u001b\[2J|\u001b\]0;|\u0007|\u202e|\rforged/;
/** The colours plants adds on a terminal (SGR sequences), taken out to read the text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const uncoloured = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');
/** Text to find as it is, in a regular expression. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.runIf(process.platform === 'linux')('a plant name with escape sequences never reaches a terminal raw', () => {
  it('plants create shows it escaped on a terminal, and stores it exactly', async () => {
    const home = await tempDir();
    const store = join(home, 'plants.json');
    const env = isolatedEnv(home, { PLANTS_STORE: store, NAME });
    const output = await onTerminal(
      `${process.execPath} ${BIN} create --local --id 1 --name "$NAME" --tag "$NAME"`,
      env,
    );
    expect(uncoloured(output)).toContain(`plant 1 "${SHOWN}" tagged "${SHOWN}"`);
    expect(output).not.toMatch(RAW);
    // --json is plain JSON, escaped by JSON itself; the store holds the name as it is.
    const json = await runPlants(['create', '--local', '--id', '2', '--name', NAME, '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual({ id: 2, name: NAME });
    // eslint-disable-next-line no-control-regex -- JSON escapes every control character but its own line breaks
    expect(json.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(json.stdout).toContain('\\u001b[2J');
  });

  it('plants list shows it escaped in its table on a terminal, plants get in its fields', async () => {
    const home = await tempDir();
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json'), NAME });
    expect((await runPlants(['create', '--local', '--id', '1', '--name', NAME, '--tag', NAME], env)).code).toBe(0);
    expect((await runPlants(['create', '--local', '--id', '2', '--name', 'Oak'], env)).code).toBe(0);
    // Wide enough that the table cuts no name: what is checked is how it is shown, not where it is cut.
    const table = await onTerminal(`stty cols 200; ${process.execPath} ${BIN} list --local`, env);
    expect(uncoloured(table)).toMatch(
      new RegExp(`ID {2}NAME +TAG\\r?\\n 1 {2}${escaped(SHOWN)} {2}${escaped(SHOWN)}\\r?\\n 2 {2}Oak`),
    );
    expect(table).not.toMatch(RAW);
    const fields = await onTerminal(`${process.execPath} ${BIN} get --local --id 1`, env);
    expect(uncoloured(fields)).toMatch(
      new RegExp(`id {3}1\\r?\\nname ${escaped(SHOWN)}\\r?\\ntag {2}${escaped(SHOWN)}\\r?\\n`),
    );
    expect(fields).not.toMatch(RAW);
  });

  it("plants import shows a failed row's content escaped in its summary on a terminal", async () => {
    const home = await tempDir();
    const input = join(home, 'rows.ndjson');
    await writeFile(
      input,
      `{"id":"x","name":${JSON.stringify(NAME)}}\n{"id":1,"name":"\u001b[2J\u001b]0;pwned\u0007" raw}\n`,
    );
    const env = isolatedEnv(home, { PLANTS_STORE: join(home, 'plants.json') });
    const output = await onTerminal(`${process.execPath} ${BIN} import ${input} --local`, env);
    expect(uncoloured(output)).toContain('2 failed');
    expect(output).toContain('\\u001b[2J');
    expect(output).not.toMatch(RAW);
  });

  it('a store path with an escape sequence is shown escaped by create, import, delete, lock wait, serve', async () => {
    const home = await tempDir();
    const store = join(home, 'e\u001b[31mvil', 'x.json');
    const shown = store.replace('\u001b', '\\u001b');
    const input = join(home, 'rows.ndjson');
    await writeFile(input, '{"id":2,"name":"b"}\n{"id":3,"name":"c"}\n');
    const env = isolatedEnv(home, { PLANTS_STORE: store });
    const plants = `${process.execPath} ${BIN}`;
    const output = uncoloured(
      await onTerminal(
        `${plants} create --local --id 1 --name b; ${plants} import ${input} --local; ${plants} delete --local --id 1`,
        env,
      ),
    );
    expect(output).toContain(`Created plant 1 "b" in ${shown}\r\n`);
    expect(output).toContain(`Imported 2 rows into ${shown} in`);
    expect(output).toContain(`Deleted plant 1 from ${shown}\r\n`);
    expect(output).not.toContain('\u001b[31mvil');
    // Waiting for the lock a killed holder left (stale in a second and a half): said with the path escaped.
    await mkdir(`${store}.lock`);
    const touched = new Date(Date.now() - 8_500);
    await utimes(`${store}.lock`, touched, touched);
    const waiting = await runPlants(['create', '--local', '--id', '4', '--name', 'd'], env);
    expect(waiting.stderr).toContain(`plants: waiting for ${shown}: another plants process holds its lock`);
    expect(waiting.stderr).not.toContain('\u001b[31mvil');
    const server = await startServer(home, ['--store', store]);
    try {
      await waitFor('the listening line', () => server.log().includes('listening'));
      expect(server.log()).toContain(`plants serve: listening on ${server.url}, store ${shown}\n`);
      expect(server.log()).not.toContain('\u001b[31mvil');
    } finally {
      await server.stop();
    }
  });
});
