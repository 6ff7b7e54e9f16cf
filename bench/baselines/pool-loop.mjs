// Baseline for figure 4: a minimal undici Pool loop posting pre-serialised bodies, with as many
// requests in flight as plants import uses by default. Usage: pool-loop.mjs URL TOKEN FILE CONCURRENCY
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

const [url, token, file, concurrency] = process.argv.slice(2);
const bodies = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line !== '');
const pool = new Pool(url, { connections: Number(concurrency) });
let next = 0;
let failed = 0;
async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    const { statusCode, body: answer } = await pool.request({
      method: 'POST',
      path: '/plants',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
    await answer.dump();
    if (statusCode !== 200) failed += 1;
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
await pool.close();
if (failed > 0) {
  console.error(`${failed} requests failed`);
  process.exit(1);
}
