import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, constants, openSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { Pool, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants, startPlants } from '../helpers/cli-process.js';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { waitFor } from '../helpers/wait-for.js';

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  servers = [];
});

async function serve(home: string): Promise<RunningServer> {
  const server = await startServer(home);
  servers.push(server);
  return server;
}

function post(pool: Pool, token: string, body: string) {
  return pool.request({
    method: 'POST',
    path: '/plants',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
}

describe('plants create against a real plants serve', () => {
  it('answers 200, each kind of 400, and 401, through the real CLI', async () => {
    const home = await tempDir();
    const server = await serve(home);
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    const max = await runPlants(
      ['create', '--id', '9223372036854775807', '--name', 'Max', '--tag', 'herb', '--json'],
      env,
    );
    expect(max).toMatchObject({
      code: 0,
      stdout: '{\n  "id": 9223372036854775807,\n  "name": "Max",\n  "tag": "herb"\n}\n',
    });
    const min = await runPlants(['create', '--id', '-9223372036854775808', '--name', 'Min'], env);
    expect(min).toMatchObject({ code: 0, stdout: `Created plant -9223372036854775808 "Min" in ${server.url}\n` });
    const duplicate = await runPlants(['create', '--id', '9223372036854775807', '--name', 'Again', '--json'], env);
    expect(duplicate.code).toBe(1);
    expect(JSON.parse(duplicate.stdout)).toEqual({
      error: 1002,
      code: 'refused',
      message: 'the service refused the plant: a plant with id 9223372036854775807 already exists (error 1002)',
    });
    const wrongToken = await runPlants(['create', '--id', '5', '--name', 'x'], {
      ...env,
      PLANTS_TOKEN: 'not-the-token',
    });
    expect(wrongToken.code).toBe(3);
    expect(wrongToken.stderr).toContain('the service refused the token (HTTP 401)');
    // Bodies the CLI would never send (it validates first) still get the contract's 400 Error.
    const pool = new Pool(server.url);
    try {
      for (const [body, error] of [
        ['{"id": 1.5, "name": "x"}', 1001],
        ['{"id": 9223372036854775808, "name": "x"}', 1001],
        ['{"id": 1, "name": "x"', 1003],
      ] as const) {
        const answer = await post(pool, server.token, body);
        expect(answer.statusCode).toBe(400);
        expect(await answer.body.json()).toMatchObject({ error });
      }
      const wrongType = await pool.request({
        method: 'POST',
        path: '/plants',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'text/plain' },
        body: '{}',
      });
      expect(wrongType.statusCode).toBe(400);
      expect(await wrongType.body.json()).toMatchObject({ error: 1004 });
    } finally {
      await pool.close();
    }
    expect(await server.stop('SIGTERM')).toBe(0);
    // On disk digit for digit (in the journal, until it is folded into the store file).
    const journal = await readFile(`${server.store}.journal`, 'utf8');
    expect(journal).toContain('{"id":9223372036854775807,"name":"Max","tag":"herb"}');
    expect(journal).toContain('{"id":-9223372036854775808,"name":"Min"}');
    expect((await storedPlants(server.store)).size).toBe(2);
  });

  it('keeps the token it makes in the data directory, never prints it, and plants login finds it', async () => {
    const home = await tempDir();
    const started = async (port = '0') => {
      const child = startPlants(['serve', '--port', port, '--store', join(home, 's.json')], isolatedEnv(home));
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const [firstLine] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string];
      expect(firstLine).toMatch(/^http:\/\/127\.0\.0\.1:\d+\n$/);
      await waitFor('the login line', () => stderr.includes('plants login'));
      return { child, url: firstLine.trim(), stderr: () => stderr };
    };
    const stopped = async (child: ChildProcess) => {
      child.kill('SIGINT');
      expect(((await once(child, 'exit')) as [number])[0]).toBe(0);
    };
    const tokenFile = join(home, '.local/share/plants/server-token');
    let server = await started();
    const token = (await readFile(tokenFile, 'utf8')).trim();
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    // Beside it, where it serves: the URL plants login may send that token to, and no other.
    const records = join(home, '.local/share/plants/serving');
    const record = join(records, `${server.child.pid}-${new URL(server.url).port}.json`);
    expect(JSON.parse(await readFile(record, 'utf8'))).toEqual({ pid: server.child.pid, urls: [server.url] });
    expect((await stat(record)).mode & 0o777).toBe(0o600);
    expect((await stat(records)).mode & 0o777).toBe(0o700);
    expect(server.stderr()).toContain(
      `accepting the one in ${tokenFile} (made now). Log in with:\n  plants login --base-url ${server.url}\n`,
    );
    const env = isolatedEnv(home, { PLANTS_BASE_URL: server.url });
    const login = await runPlants(['login', '--base-url', server.url], env);
    expect(login.code).toBe(0);
    expect(login.stderr).toContain(`(the token of the local plants serve, from ${tokenFile})`);
    expect((await runPlants(['create', '--id', '1', '--name', 'Fern'], env)).code).toBe(0);
    expect(server.stderr()).not.toContain(token);
    await stopped(server.child);
    expect(await readdir(records)).toEqual([]);

    // Restarted: the same token, so the saved login still works.
    server = await started(new URL(server.url).port);
    expect(server.stderr()).toContain(`accepting the one in ${tokenFile}. Log in with:`);
    expect((await runPlants(['create', '--id', '2', '--name', 'Oak'], env)).code).toBe(0);
    expect((await readFile(tokenFile, 'utf8')).trim()).toBe(token);
    expect(server.stderr()).not.toContain(token);
    await stopped(server.child);
  });

  it('keeps serving when the reader of its log goes away', async () => {
    const home = await tempDir();
    const child = startPlants(
      ['serve', '--port', '0', '--token', 'tok', '--store', join(home, 's.json')],
      isolatedEnv(home),
    );
    const [line] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string];
    child.stderr!.destroy(); // the log's reader is gone: every log line now meets a broken pipe
    const post = (id: number) =>
      request(`${line.trim()}/plants`, {
        method: 'POST',
        headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
        body: `{"id":${id},"name":"x"}`,
      });
    for (const id of [1, 2, 3]) expect((await post(id)).statusCode).toBe(200);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    expect((await storedPlants(join(home, 's.json'))).size).toBe(3);
  });

  it.skipIf(process.platform === 'win32')(
    'keeps serving while the reader of its log falls behind, and loses none of the log',
    async () => {
      const home = await tempDir();
      // The log goes into a named pipe (64 KiB on Linux) that nobody reads for a while.
      const fifo = join(home, 'log');
      execFileSync('mkfifo', [fifo]);
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writer = openSync(fifo, constants.O_WRONLY);
      const child = spawn(
        process.execPath,
        [BIN, 'serve', '--port', '0', '--token', 'tok', '--store', join(home, 's.json')],
        { env: isolatedEnv(home), stdio: ['ignore', 'pipe', writer] },
      );
      closeSync(writer);
      try {
        const [line] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string];
        const pool = new Pool(line.trim(), { connections: 20 });
        const creates = 3000; // a log line each: some 200 KB, three times what the pipe holds
        const answered = Promise.all(
          Array.from({ length: creates }, (_, id) =>
            pool
              .request({
                path: '/plants',
                method: 'POST',
                headers: { authorization: 'Bearer tok', 'content-type': 'application/json' },
                body: `{"id":${id},"name":"x"}`,
              })
              .then(async (answer) => {
                await answer.body.dump();
                return answer.statusCode;
              }),
          ),
        );
        // A server stuck on its log answers none of the rest (~1,000 lines fill the pipe): give up
        // on it after 30 s, where 3,000 creates take 1-4 s even on a loaded machine.
        const statuses = await Promise.race([
          answered,
          new Promise<number[]>((resolve) => setTimeout(() => resolve([]), 30_000).unref()),
        ]);
        await pool.destroy();
        expect(
          statuses.filter((status) => status === 200).length,
          'creates answered before the server stalled on its log',
        ).toBe(creates);
        // Now the reader catches up: every line is there.
        let log = '';
        const logReader = new Socket({ fd: reader, readable: true, writable: false })
          .setEncoding('utf8')
          .on('data', (chunk: string) => (log += chunk));
        const logEnded = once(logReader, 'end');
        child.kill('SIGTERM');
        const [code] = (await once(child, 'exit')) as [number];
        await logEnded;
        expect(code).toBe(0);
        expect(log.match(/ POST \/plants 200 /g)).toHaveLength(creates);
        expect(log).toMatch(/plants serve: stopped\n$/);
      } finally {
        child.kill('SIGKILL');
      }
    },
    60_000,
  );

  it('accepts the tokens of PLANTS_SERVER_TOKENS', async () => {
    const home = await tempDir();
    const child = startPlants(
      ['serve', '--port', '0', '--store', join(home, 's.json'), '--quiet'],
      isolatedEnv(home, { PLANTS_SERVER_TOKENS: 'first-token, second-token' }),
    );
    const [line] = (await once(child.stdout!.setEncoding('utf8'), 'data')) as [string];
    const url = line.trim();
    for (const [token, code] of [
      ['first-token', 0],
      ['second-token', 0],
      ['third-token', 3],
    ] as const) {
      const result = await runPlants(
        ['create', '--id', String(code + token.length), '--name', 'x'],
        isolatedEnv(home, { PLANTS_BASE_URL: url, PLANTS_TOKEN: token }),
      );
      expect(result.code).toBe(code);
    }
    child.kill('SIGTERM');
    await once(child, 'exit');
  });

  it('shares its store with plants create --local: each sees what the other added', async () => {
    const home = await tempDir();
    const server = await serve(home);
    const remote = isolatedEnv(home, { PLANTS_BASE_URL: server.url, PLANTS_TOKEN: server.token });
    const local = isolatedEnv(home, { PLANTS_STORE: server.store });
    expect((await runPlants(['create', '--id', '1', '--name', 'remote'], remote)).code).toBe(0);
    expect((await runPlants(['create', '--local', '--id', '1', '--name', 'local'], local)).code).toBe(1);
    expect((await runPlants(['create', '--local', '--id', '2', '--name', 'local'], local)).code).toBe(0);
    expect((await runPlants(['create', '--id', '2', '--name', 'remote'], remote)).code).toBe(1);
    expect((await runPlants(['create', '--id', '3', '--name', 'remote'], remote)).code).toBe(0);
    expect(await server.stop('SIGTERM')).toBe(0);
    expect([...(await storedPlants(server.store)).values()].map((p) => p.name)).toEqual(['remote', 'local', 'remote']);
  });

  it('keeps all of 2,000 creates from 50 connections across a restart', async () => {
    const home = await tempDir();
    let server = await serve(home);
    const pool = new Pool(server.url, { connections: 50 });
    try {
      const answers = await Promise.all(
        Array.from(
          { length: 2000 },
          async (_, i) => (await post(pool, server.token, `{"id":${i},"name":"p${i}"}`)).statusCode,
        ),
      );
      expect(answers.every((status) => status === 200)).toBe(true);
    } finally {
      await pool.close();
    }
    expect(await server.stop('SIGTERM')).toBe(0);
    server = await serve(home);
    expect((await storedPlants(server.store)).size).toBe(2000);
    const again = await request(`${server.url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: '{"id":1999,"name":"x"}',
    });
    expect(again.statusCode).toBe(400);
    expect(await again.body.json()).toMatchObject({ error: 1002 });
  });

  it('holds every plant that got a 200 after a SIGKILL in the middle of a burst', async () => {
    const home = await tempDir();
    let server = await serve(home);
    const pool = new Pool(server.url, { connections: 50 });
    const acknowledged: number[] = [];
    const burst = Array.from({ length: 20_000 }, async (_, i) => {
      try {
        const answer = await post(pool, server.token, `{"id":${i},"name":"p${i}"}`);
        await answer.body.dump();
        if (answer.statusCode === 200) acknowledged.push(i);
      } catch {
        // The server died under this request: no 200, no promise made.
      }
    });
    // Killed by progress, not after a time: a fast machine answers all 20,000 within a second.
    await waitFor('2,000 acknowledged creates', () => acknowledged.length >= 2_000);
    await server.stop('SIGKILL');
    await Promise.all(burst);
    await pool.destroy();
    expect(acknowledged.length).toBeGreaterThan(0);
    expect(acknowledged.length).toBeLessThan(20_000);
    server = await serve(home); // reads the store and its journal, or fails to start
    const stored = await storedPlants(server.store);
    expect(acknowledged.filter((id) => !stored.has(BigInt(id)))).toEqual([]);
  });
});
