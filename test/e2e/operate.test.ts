import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve as resolvePath } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runPlants } from '../helpers/cli-process.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
import { adminUrl, startServer, type RunningServer } from '../helpers/serve-process.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { tempDir } from '../helpers/temp.js';
import { waitFor } from '../helpers/wait-for.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECORDER = fileURLToPath(new URL('./fixtures/record-modules.cjs', import.meta.url));

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop('SIGKILL');
});

async function serve(args: string[], env: Record<string, string> = {}): Promise<RunningServer & { home: string }> {
  const home = await tempDir();
  const server = await startServer(home, args, env);
  running.push(server);
  return { ...server, home };
}

async function get(url: string): Promise<{ status: number; body: string }> {
  const response = await request(url);
  return { status: response.statusCode, body: await response.body.text() };
}

function create(server: RunningServer, id: number) {
  return request(`${server.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id, name: `plant ${id}` }),
  });
}

describe('plants serve in production: admin port, drain, JSON log', () => {
  it('turns /readyz 503 at SIGTERM, serves a request sent during --shutdown-delay, and keeps it', async () => {
    const server = await serve(['--admin-port', '0', '--shutdown-delay', '3']);
    const admin = await adminUrl(server);
    expect(await get(`${admin}/livez`)).toEqual({ status: 200, body: '{"status":"live"}' });
    expect((await get(`${admin}/readyz`)).status).toBe(200);
    const exited = once(server.child, 'exit');
    server.child.kill('SIGTERM');
    await waitFor('/readyz to answer 503', async () => (await get(`${admin}/readyz`)).status === 503);
    expect(JSON.parse((await get(`${admin}/readyz`)).body)).toEqual({ status: 'not_ready', reason: 'stopping' });
    // Still within the delay: the line that says it stops comes after it.
    expect(server.log()).not.toContain('plants serve: stopped');
    const during = await create(server, 42);
    expect(during.statusCode).toBe(200);
    await during.body.text();
    const [code] = (await exited) as [number | null];
    expect(code).toBe(0);
    expect(server.log()).toContain(
      'plants serve: SIGTERM: not ready; serving 3 s more, then finishing requests in flight\n',
    );
    const stored = await runPlants(
      ['get', '--local', '--id', '42', '--store', server.store, '--json'],
      isolatedEnv(server.home),
    );
    expect(stored.code).toBe(0);
    expect(JSON.parse(stored.stdout)).toMatchObject({ id: 42, name: 'plant 42' });
  });

  it('takes the admin port from PLANTS_ADMIN_PORT, and writes its log as JSON with --log-format json', async () => {
    const server = await serve(['--log-format', 'json'], { PLANTS_ADMIN_PORT: '0' });
    const admin = await adminUrl(server);
    expect((await get(`${admin}/metrics`)).body).toContain('# TYPE plants_http_requests_total counter');
    const answer = await request(`${server.url}/plants?token=${server.token}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.token}`,
        'content-type': 'application/json',
        'x-request-id': 'trace-1',
      },
      body: '{"id": 1, "name": "Fern"}',
    });
    expect(answer.headers['x-request-id']).toBe('trace-1');
    await answer.body.text();
    await server.stop('SIGTERM');
    const lines = server.log().trim().split('\n');
    // --quiet (the helper's) leaves out request lines; everything else is a JSON object a line.
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({
        time: expect.any(String),
        level: expect.stringMatching(/^(info|warn|error)$/),
        message: expect.any(String),
      });
    expect(lines.map((line) => (JSON.parse(line) as { message: string }).message)).toContain('plants serve: stopped');
    expect(server.log()).not.toContain(server.token);
  });

  it('logs each request with its id, as JSON, never the token or the query', async () => {
    const home = await tempDir();
    const child = spawn(
      process.execPath,
      [
        BIN,
        'serve',
        '--port',
        '0',
        '--token',
        'tok-operate-123456',
        '--store',
        join(home, 's.json'),
        '--log-format',
        'json',
      ],
      { env: isolatedEnv(home), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    const [url] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const answer = await request(`${url}/plants?secret=s3cr3t`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer tok-operate-123456',
        'content-type': 'application/json',
        'x-request-id': 'trace-2',
      },
      body: '{"id": 1, "name": "Fern"}',
    });
    await answer.body.text();
    child.kill('SIGTERM');
    await once(child, 'exit');
    const entries = log
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries).toContainEqual({
      time: expect.any(String),
      level: 'info',
      message: 'POST /plants 200',
      method: 'POST',
      route: '/plants',
      status: 200,
      durationMs: expect.any(Number),
      requestId: 'trace-2',
      batchSize: 1,
    });
    expect(log).not.toContain('tok-operate-123456');
    expect(log).not.toContain('s3cr3t');
  });

  it.each([
    [['--log-format', 'xml'], {}, '--log-format must be text or json, got "xml"'],
    [['--admin-port', '70000'], {}, '--admin-port must be a number from 0 to 65535, got "70000"'],
    [['--shutdown-delay', '-1'], {}, '--shutdown-delay must be a number of seconds from 0 to 3600, got "-1"'],
    [['--shutdown-delay', '3601'], {}, '--shutdown-delay must be a number of seconds from 0 to 3600, got "3601"'],
    [[], { PLANTS_ADMIN_PORT: 'nine' }, 'PLANTS_ADMIN_PORT must be a number from 0 to 65535, got "nine"'],
  ])('refuses %j %j as a usage error (exit 2)', async (args, env, message) => {
    const home = await tempDir();
    const result = await runPlants(
      ['serve', '--port', '0', '--store', join(home, 's.json'), ...args],
      isolatedEnv(home, env),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${message}\n`);
    expect(result.stdout).toBe('');
  });

  it('stops, and says so, when the admin port is taken', async () => {
    const first = await serve(['--admin-port', '0']);
    const taken = new URL(await adminUrl(first)).port;
    const home = await tempDir();
    const result = await runPlants(
      ['serve', '--port', '0', '--store', join(home, 's.json'), '--admin-port', taken],
      isolatedEnv(home),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: cannot listen on 127.0.0.1:${taken} (the admin port): `);
  });
});

/** The source files a serve loads (by the source maps of its dist/ files), stopped once it listens. */
async function sourcesLoadedByServe(args: string[]): Promise<string[]> {
  const home = await tempDir();
  const log = join(home, 'modules.log');
  const child = spawn(
    process.execPath,
    [
      '--require',
      RECORDER,
      BIN,
      'serve',
      '--port',
      '0',
      '--token',
      'tok-operate-123456',
      '--store',
      join(home, 's.json'),
      ...args,
    ],
    {
      env: isolatedEnv(home, { PLANTS_TEST_MODULE_LOG: log }),
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  await once(createInterface({ input: child.stdout }), 'line');
  child.kill('SIGTERM');
  await once(child, 'exit');
  const sources = new Set<string>();
  for (const file of (await readFile(log, 'utf8')).split('\n').filter((path) => path.includes('/dist/'))) {
    const map = JSON.parse(await readFile(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const source of map.sources) sources.add(relative(ROOT, resolvePath(dirname(file), source)));
  }
  return [...sources];
}

describe('the cost of the admin port when it is off', () => {
  it('loads neither prom-client nor the admin listener unless the admin port is on', async () => {
    const off = await sourcesLoadedByServe([]);
    expect(
      off.filter((source) =>
        /node_modules\/prom-client\/|src\/server\/(admin|metrics)\.ts$|openapi\.json$/.test(source),
      ),
    ).toEqual([]);
    const on = await sourcesLoadedByServe(['--admin-port', '0']);
    expect(on.filter((source) => /node_modules\/prom-client\//.test(source)).length).toBeGreaterThan(0);
    expect(on).toContain('src/server/metrics.ts');
  });
});

describe('plants serve --database --admin-port', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('shows the pool in /metrics, and /readyz 503 while the database is gone, 200 once it is back', async () => {
    await db.query('CREATE SCHEMA operate');
    const target = new URL(db.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    try {
      const url = new URL(db.url);
      url.port = String(proxy.port);
      url.searchParams.set('options', '-c search_path=operate');
      const server = await serve(['--database', url.href, '--pool', '3', '--admin-port', '0']);
      const admin = await adminUrl(server);
      const statusOf = async (id: number) => {
        const answer = await create(server, id);
        await answer.body.text();
        return answer.statusCode;
      };
      expect(await statusOf(1)).toBe(200);
      const scrape = (await get(`${admin}/metrics`)).body;
      const total = Number(/^plants_pg_pool_clients\{state="total"\} (\d+)$/m.exec(scrape)?.[1]);
      expect(total).toBeGreaterThanOrEqual(1);
      expect(total).toBeLessThanOrEqual(3);
      expect(scrape).toMatch(/^plants_pg_pool_clients\{state="idle"\} \d+$/m);
      expect(scrape).toMatch(/^plants_pg_pool_clients\{state="waiting"\} 0$/m);
      expect(scrape).toMatch(/^plants_store_commit_duration_seconds_count [1-9]\d*$/m);

      proxy.cut();
      // A connection cut under a write may answer 500 (it may have committed); one with none, 503.
      let id = 100;
      await waitFor('a 503 from the database gone', async () => (await statusOf((id += 1))) === 503);
      expect(await get(`${admin}/readyz`)).toEqual({
        status: 503,
        body: '{"status":"not_ready","reason":"the store is unavailable"}',
      });
      expect((await get(`${admin}/metrics`)).body).toMatch(/^plants_store_outage 1$/m);
      proxy.restore();
      await waitFor('a write once the database is back', async () => (await statusOf((id += 1))) === 200);
      // Ready once nothing has been refused for a second since (see src/server/outage.ts).
      await waitFor('/readyz 200', async () => (await get(`${admin}/readyz`)).status === 200);
    } finally {
      await proxy.close();
    }
  });
});
