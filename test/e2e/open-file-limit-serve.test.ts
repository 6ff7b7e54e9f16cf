import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { BIN, finished, isolatedEnv, startPlantsLimited } from '../helpers/cli-process.js';
import { adminUrl, startServer, type RunningServer } from '../helpers/serve-process.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';
import { pattern } from '../helpers/pattern.js';

// plants serve in a process allowed few descriptors (ulimit -n): each connection is one. Before,
// it printed "listening" and then closed connections it had no descriptor for, saying nothing.

/** A connection that sends nothing; `closed` is true once the server closed it. */
function idleConnection(port: number): Promise<{ socket: Socket; closed: () => boolean }> {
  return new Promise((resolve) => {
    let closed = false;
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, closed: () => closed }));
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
  });
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const answer = await request(url, { reset: true });
  return { status: answer.statusCode, body: await answer.body.text() };
}

async function create(server: RunningServer, id: number): Promise<number> {
  const answer = await request(`${server.url}/plants`, {
    method: 'POST',
    reset: true,
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: `{"id":${id},"name":"plant ${id}"}`,
  });
  await answer.body.text();
  return answer.statusCode;
}

describe('plants serve under a low limit of open files (ulimit -n)', () => {
  it('says once that it refuses connections, answers /readyz 503 meanwhile, once that it takes more', async () => {
    const home = await tempDir();
    const server = await startServer(home, ['--admin-port', '0'], {}, { openFiles: 64 });
    const admin = await adminUrl(server);
    // It says at start how many connections the limit leaves room for.
    const cap = Number(
      pattern(
        /^plants serve: at most (\d+) connections: /,
        /the limit of open files \(ulimit -n 64\) leaves room for no more$/m,
      ).exec(server.log())?.[1],
    );
    expect(cap).toBeGreaterThan(0);
    expect(cap).toBeLessThan(64);
    expect(await get(`${admin}/readyz`)).toEqual({ status: 200, body: '{"status":"ready"}' });
    const connections: { socket: Socket; closed: () => boolean }[] = [];
    for (let i = 0; i < 100; i += 1) connections.push(await idleConnection(Number(new URL(server.url).port)));
    await waitFor('the log to say it refuses connections', () =>
      server.log().includes('plants serve: refusing connections'),
    );
    const refusing = server
      .log()
      .split('\n')
      .filter((line) => line.includes('refusing connections'));
    expect(refusing).toHaveLength(1);
    expect(refusing[0]).toMatch(
      pattern(
        /^\S+ plants serve: refusing connections: \d+ open, /,
        /the most the limit of open files \(ulimit -n 64\) leaves room for; /,
        /the connections refused meanwhile are counted, not logged$/,
      ),
    );
    // The admin listener has descriptors of its own: a probe is answered, and told why.
    const notReady = await get(`${admin}/readyz`);
    expect(notReady.status).toBe(503);
    expect(JSON.parse(notReady.body)).toEqual({
      status: 'not_ready',
      reason: 'refusing connections: at the limit of open files',
    });
    // It kept as many as it said, and closed the rest.
    await waitFor(
      'the connections past the cap closed',
      () => connections.filter((connection) => connection.closed()).length === 100 - cap,
    );
    // Descriptors free again: it takes connections, once and for all.
    for (const { socket } of connections) socket.destroy();
    await waitFor('the log to say it accepts connections again', () =>
      server.log().includes('accepting connections again'),
    );
    // Every connection it closed is counted: none was closed unseen, for want of a descriptor.
    expect(server.log()).toMatch(
      new RegExp(
        `^\\S+ plants serve: accepting connections again; ${100 - cap} connections were refused meanwhile$`,
        'm',
      ),
    );
    expect(
      server
        .log()
        .split('\n')
        .filter((line) => line.includes('connections again')),
    ).toHaveLength(1);
    expect(await get(`${admin}/readyz`)).toEqual({ status: 200, body: '{"status":"ready"}' });
    expect(await create(server, 1)).toBe(200);
    expect(await server.stop()).toBe(0);
  });

  it('refuses to start, exit 2, where it could not serve one connection; wherever it starts, it serves', async () => {
    const outcomes: string[] = [];
    for (let openFiles = 16; openFiles <= 48 && !outcomes.includes('serves'); openFiles += 1) {
      const home = await tempDir();
      const args = [
        'serve',
        '--port',
        '0',
        '--store',
        join(home, 'p.json'),
        '--token',
        'a-token-of-twenty-chars',
        '--admin-port',
        '0',
      ];
      const child = startPlantsLimited(openFiles, args, isolatedEnv(home));
      const result = finished(child);
      const url = await new Promise<string | undefined>((resolve) => {
        child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
        child.once('exit', () => resolve(undefined));
      });
      if (url !== undefined) {
        const server = { url, token: 'a-token-of-twenty-chars' } as RunningServer;
        expect(await create(server, openFiles), `ulimit -n ${openFiles}`).toBe(200);
        child.kill('SIGTERM');
        expect((await result).code).toBe(0);
        outcomes.push('serves');
        continue;
      }
      const { code, signal, stderr } = await result;
      // Below some limit node itself cannot start: no code of ours ran.
      if (signal !== null || stderr.includes(`open '${BIN}'`) || (code === 134 && stderr.includes('uv_loop_init'))) {
        expect(outcomes).toEqual([]);
        continue;
      }
      if (code === 4) {
        // A part of plants it loads on demand could not be opened: the error of every command.
        expect(stderr).toMatch(
          /^error: too many open files \(EMFILE\): raise the limit of open files \(ulimit -n\) and run it again\n$/,
        );
        outcomes.push('refuses');
        continue;
      }
      // Its store, a listener, or a connection it could not open: a usage error, as for a port in use.
      expect({ openFiles, code }).toEqual({ openFiles, code: 2 });
      expect(stderr).toMatch(
        pattern(
          /^error: cannot (listen on|open the store).*: too many open files \(EMFILE\)\n|/,
          /^error: the limit of open files \(ulimit -n \d+\) leaves no room for a connection/,
        ),
      );
      expect(stderr).toMatch(/\nhint: raise the limit of open files \(ulimit -n; LimitNOFILE= under systemd\)/);
      outcomes.push('refuses');
    }
    expect(outcomes[0]).toBe('refuses');
    expect(outcomes.at(-1)).toBe('serves');
  });
});
