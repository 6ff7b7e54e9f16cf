import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/serve-process.js';
import { storedPlants } from '../helpers/stored-plants.js';
import { tempDir } from '../helpers/temp.js';

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
      await Promise.all(Array.from({ length: 100 }, (_, i) => pool.request({ method: 'POST', path: '/plants', headers, body: `{"id":${start + i},"name":"p"}` }).then((answer) => answer.body.text())));
    }
    const deleted: bigint[] = [];
    let next = 0;
    const killed = new Promise<void>((resolve) => setTimeout(() => resolve(void server.child.kill('SIGKILL')), 150));
    const worker = async () => {
      while (next < total) {
        const id = next++;
        try {
          const answer = await pool.request({ method: 'DELETE', path: `/plants/${id}`, headers: { authorization: headers.authorization } });
          await answer.body.text();
          if (answer.statusCode === 204) deleted.push(BigInt(id));
        } catch {
          return; // the server is gone
        }
      }
    };
    await Promise.all([...Array.from({ length: 16 }, worker), killed]);
    await pool.destroy();
    expect(deleted.length).toBeGreaterThan(0);
    const left = await storedPlants(server.store);
    expect(deleted.filter((id) => left.has(id))).toEqual([]);
    // Nothing else is gone: every plant is either acknowledged deleted, or there (or deleted unacknowledged).
    expect(left.size).toBeGreaterThanOrEqual(total - next);
  });
});
