import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AcceptOutage } from '../../src/server/accept-outage.js';
import { createPlantServer } from '../../src/server/app.js';
import { listen, stopServer } from '../../src/server/lifecycle.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { waitFor } from '../helpers/wait-for.js';

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A connection that sends nothing; `closed` once the server closed it. */
function idle(port: number): Promise<{ socket: Socket; closed: () => boolean }> {
  return new Promise((resolve) => {
    let closed = false;
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, closed: () => closed }));
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
  });
}

describe('a listener at its cap of connections', () => {
  it(
    'says once that it refuses connections, however often one closes and the next is taken, and once that it ' +
      'takes them again',
    async () => {
      const said: string[] = [];
      const server = createPlantServer({ store: new MemoryStore(), tokens: ['t'], limits: { maxConnections: 2 } });
      const accepting = new AcceptOutage((line) => said.push(line));
      accepting.watch(server, { connections: 2, openFiles: 40 });
      const { port } = await listen(server, 0, '127.0.0.1');
      try {
        const kept = [await idle(port), await idle(port)];
        const refused = await idle(port);
        await waitFor('the third connection closed', refused.closed);
        expect(said).toEqual([
          'plants serve: refusing connections: 2 open, the most the limit of open files (ulimit -n 40) leaves ' +
            'room for; the connections refused meanwhile are counted, not logged',
        ]);
        expect(accepting.isOut).toBe(true);
        expect(accepting.reason).toBe('refusing connections: at the limit of open files');
        // At the cap, each connection that closes lets one more in, and the next is refused again.
        for (let i = 0; i < 5; i += 1) {
          kept.shift()?.socket.destroy();
          await waitFor(
            'a connection closed on the server',
            async () =>
              (await new Promise((resolve) => server.getConnections((_error, count) => resolve(count)))) === 1,
          );
          kept.push(await idle(port));
          const next = await idle(port);
          await waitFor('the connection past the cap closed', next.closed);
        }
        expect(said).toHaveLength(1);
        expect(accepting.isOut).toBe(true);
        for (const { socket } of kept) socket.destroy();
        await waitFor('the end of the outage', () => said.length === 2);
        expect(said[1]).toBe('plants serve: accepting connections again; 6 connections were refused meanwhile');
        expect(accepting.isOut).toBe(false);
      } finally {
        accepting.stopped();
        await stopServer(server, { graceMs: 100 });
      }
    },
  );
});
