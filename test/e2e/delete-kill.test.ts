import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  servers = [];
});

describe('a delete plants serve answered 204 survives a SIGKILL', () => {
  it('loses no acknowledged delete, and keeps every plant it did not delete', async () => {
    const home = await tempDir();
    const server = await startServer(home);
    servers.push(server);
    const pool = new Pool(server.url, { connections: 16 });
    const headers = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
    const total = 3_000;
    for (let start = 0; start < total; start += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          pool
            .request({ method: 'POST', path: '/plants', headers, body: `{"id":${start + i},"name":"p"}` })
            .then((answer) => answer.body.text()),
        ),
      );
    }
    const deleted: bigint[] = [];
    let next = 0;
    // Killed by progress, not after a time: a fast machine deletes all 3,000 before any timer fires.
    let killedAt: number | undefined;
    const killed = waitFor('500 acknowledged deletes', () => deleted.length >= 500, 30_000).then(() => {
      killedAt = next;
      server.child.kill('SIGKILL');
    });
    const worker = async () => {
      while (next < total) {
        const id = next++;
        try {
          const answer = await pool.request({
            method: 'DELETE',
            path: `/plants/${id}`,
            headers: { authorization: headers.authorization },
          });
          await answer.body.text();
          if (answer.statusCode === 204) deleted.push(BigInt(id));
        } catch {
          return; // the server is gone
        }
      }
    };
    await Promise.all([...Array.from({ length: 16 }, worker), killed]);
    await pool.destroy();
    // The kill came in the middle of the burst: deletes were still to be sent.
    expect(killedAt).toBeLessThan(total);
    expect(deleted.length).toBeGreaterThanOrEqual(500);
    const left = await storedPlants(server.store);
    expect(deleted.filter((id) => left.has(id))).toEqual([]);
    // Nothing else is gone: every plant is either acknowledged deleted, or there (or deleted unacknowledged).
    expect(left.size).toBeGreaterThanOrEqual(total - next);
  });
});
