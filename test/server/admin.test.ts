import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_NUMBERS, PlantsError } from '../../src/core/errors.js';
import { parseJson } from '../../src/core/json.js';
import { ADMIN_ROUTES, createAdminServer, type Readiness } from '../../src/server/admin.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { listen, stopServer } from '../../src/server/lifecycle.js';
import { ServiceMetrics } from '../../src/server/metrics.js';
import { StoreOutage, watchWrites } from '../../src/server/store-outage.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { storeWith } from '../helpers/stores.js';
import { waitFor } from '../helpers/wait-for.js';
import { schemaProblems } from './support/openapi.js';
import { startServer, TOKEN, type RunningServer } from './support/server.js';

/** The admin listener's document: every answer in these tests is held to it. */
const adminDocument = JSON.parse(readFileSync(new URL('../../openapi-admin.json', import.meta.url), 'utf8')) as {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          { content?: Record<string, { schema: { $ref?: string } }>; headers?: Record<string, unknown> }
        >;
      }
    >
  >;
  components: {
    schemas: Record<string, object>;
    responses: Record<
      string,
      { content?: Record<string, { schema: { $ref?: string } }>; headers?: Record<string, unknown> }
    >;
  };
};
const serviceDocumentText = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');

function local<T>(ref: string): T {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], adminDocument) as T;
}

const NAMED: Record<number, string> = {
  400: 'BadRequest',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  408: 'RequestTimeout',
  413: 'PayloadTooLarge',
  431: 'HeadersTooLarge',
  500: 'InternalError',
  505: 'HttpVersionNotSupported',
};

interface AdminAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Asserts the answer is one openapi-admin.json describes: status, media type, and a JSON body of its schema. */
function expectDocumented(answer: AdminAnswer, path: string, method = 'GET'): void {
  const own = adminDocument.paths[path]?.[method.toLowerCase()]?.responses[String(answer.status)];
  const spec = own ?? adminDocument.components.responses[NAMED[answer.status] ?? ''];
  expect(spec, `status ${answer.status} of ${method} ${path} is documented (${answer.body})`).toBeDefined();
  const [media, content] = Object.entries(spec?.content ?? {})[0] ?? [];
  expect(String(answer.headers['content-type']).split(';')[0]).toBe(media);
  if (media !== 'application/json') return;
  const schema = content?.schema.$ref === undefined ? content?.schema : local<object>(content.schema.$ref);
  expect(schemaProblems(parseJson(answer.body), schema as never), answer.body).toEqual([]);
  for (const name of Object.keys(spec?.headers ?? {})) expect(answer.headers[name.toLowerCase()], name).toBeDefined();
}

interface RunningAdmin {
  url: string;
  port: number;
  get(
    path: string,
    options?: { method?: 'GET' | 'POST' | 'DELETE'; headers?: Record<string, string>; body?: string | Buffer },
  ): Promise<AdminAnswer>;
  stop(): Promise<void>;
}

async function startAdmin(readiness: () => Readiness, metrics: ServiceMetrics, limits = {}): Promise<RunningAdmin> {
  const server = createAdminServer({
    readiness,
    metrics: async () => ({ contentType: metrics.contentType, text: await metrics.text() }),
    onUnexpectedError: () => undefined,
    limits,
  });
  const { url, port } = await listen(server, 0, '127.0.0.1');
  return {
    url,
    port,
    async get(path, options = {}) {
      const response = await request(`${url}${path}`, {
        method: options.method ?? 'GET',
        headers: options.headers ?? {},
        body: options.body ?? null,
      });
      const answer = { status: response.statusCode, headers: response.headers, body: await response.body.text() };
      expectDocumented(answer, path, options.method);
      return answer;
    },
    stop: () => stopServer(server, { graceMs: 500 }),
  };
}

function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

const unavailable = () => new PlantsError('store_io', 'disk full at /srv/secret/path', { effect: 'none' });

describe('the admin listener', () => {
  const outage = new StoreOutage(
    () => undefined,
    () => undefined,
    async () => {
      if (failing) throw unavailable();
    },
  );
  const metrics = new ServiceMetrics({ outage, poolStats: () => ({ total: 7, idle: 3, waiting: 2 }) });
  let stopping = false;
  let failing = false;
  const memory = new MemoryStore();
  const inner = storeWith(
    { addAll: async (plants) => (failing ? Promise.reject(unavailable()) : memory.addAll(plants)) },
    memory,
  );
  let admin: RunningAdmin;
  let service: RunningServer;
  beforeAll(async () => {
    const readiness = (): Readiness =>
      stopping
        ? { ready: false, reason: 'stopping' }
        : outage.isOut
          ? { ready: false, reason: 'the store is unavailable' }
          : { ready: true };
    admin = await startAdmin(readiness, metrics);
    service = await startServer(
      watchWrites(new BatchingStore(inner, 1, metrics.batchWritten), () => outage.wrote()),
      { observer: metrics, onUnexpectedError: (error) => outage.failed(error) },
    );
  });
  afterAll(async () => {
    await service.stop();
    await admin.stop();
  });

  it('answers /livez and /readyz 200 without a token, and serves no plant data', async () => {
    expect(JSON.parse((await admin.get('/livez')).body)).toEqual({ status: 'live' });
    expect(JSON.parse((await admin.get('/readyz')).body)).toEqual({ status: 'ready' });
    // A token changes nothing, and /plants is none of its paths.
    expect((await admin.get('/livez', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const plants = await admin.get('/plants', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(plants.status).toBe(404);
    expect(JSON.parse(plants.body)).toEqual({
      error: ERROR_NUMBERS.not_found,
      message: 'no such resource: the admin listener has /livez, /readyz, /metrics and /openapi.json',
    });
    const post = await admin.get('/readyz', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET');
  });

  it('documents in openapi-admin.json exactly the routes it has', () => {
    const documented = Object.entries(adminDocument.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(ADMIN_ROUTES.routes.map((route) => `${route.method} ${route.path}`).sort());
  });

  it("serves the service's openapi.json as it is in the repository", async () => {
    const answer = await admin.get('/openapi.json');
    expect(JSON.parse(answer.body)).toEqual(JSON.parse(serviceDocumentText));
  });

  it(
    'answers /readyz 503 while the store is out, and 200 once a write succeeds and nothing is refused for a ' +
      'second',
    async () => {
      failing = true;
      expect((await service.send({ body: '{"id": 1, "name": "Fern"}' })).status).toBe(503);
      expect((await service.send({ body: '{"id": 2, "name": "Fern"}' })).status).toBe(503);
      const out = await admin.get('/readyz');
      expect(out.status).toBe(503);
      // Why, in a phrase: never the store's own message, which names files on the server's disk.
      expect(JSON.parse(out.body)).toEqual({ status: 'not_ready', reason: 'the store is unavailable' });
      const scrape = (await admin.get('/metrics')).body;
      expect(scrape).toContain('plants_store_outage 1');
      expect(scrape).toContain('plants_store_refused_requests_total 2');
      failing = false;
      expect((await service.send({ body: '{"id": 3, "name": "Fern"}' })).status).toBe(200);
      await waitFor('/readyz 200', async () => (await admin.get('/readyz')).status === 200);
      expect((await admin.get('/metrics')).body).toContain('plants_store_outage 0');
    },
  );

  it('answers /readyz 503 from the moment the service is stopping', async () => {
    stopping = true;
    try {
      const answer = await admin.get('/readyz');
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toEqual({ status: 'not_ready', reason: 'stopping' });
    } finally {
      stopping = false;
    }
  });

  it('counts requests by method, route and status (never a raw path), with latency, batches and the pool', async () => {
    await service.send({ body: '{"id": 10, "name": "Fern"}' });
    await service.send({ method: 'GET', path: '/plants/10' });
    await service.send({ method: 'GET', path: `/plants/10?token=${TOKEN}` });
    await service.send({ method: 'GET', path: `/${TOKEN}/plants` });
    const answer = await admin.get('/metrics');
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const scrape = answer.body;
    expect(scrape).toMatch(/^plants_http_requests_total\{method="POST",route="\/plants",status="200"\} \d+$/m);
    expect(scrape).toMatch(/^plants_http_requests_total\{method="GET",route="\/plants\/\{id\}",status="200"\} 2$/m);
    expect(scrape).toMatch(/^plants_http_requests_total\{method="GET",route="\(other path\)",status="404"\} 1$/m);
    expect(scrape).toMatch(/^plants_http_request_duration_seconds_count\{route="\/plants\/\{id\}"\} 2$/m);
    expect(scrape).toMatch(/^plants_http_requests_in_flight 0$/m);
    expect(scrape).toMatch(/^plants_store_batch_size_count [1-9]\d*$/m);
    expect(scrape).toMatch(/^plants_store_commit_duration_seconds_count [1-9]\d*$/m);
    expect(scrape).toContain('plants_pg_pool_clients{state="total"} 7');
    expect(scrape).toContain('plants_pg_pool_clients{state="idle"} 3');
    expect(scrape).toContain('plants_pg_pool_clients{state="waiting"} 2');
    // prom-client's default metrics.
    expect(scrape).toMatch(/^process_cpu_user_seconds_total /m);
    expect(scrape).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(scrape).not.toContain(TOKEN);
  });

  it('names an unknown method `other`, so a client cannot add series', () => {
    const own = new ServiceMetrics({ outage });
    own.requestStarted();
    own.requestEnded('BREW', '/plants', 405, 0.001);
    return own
      .text()
      .then((text) =>
        expect(text).toMatch(/^plants_http_requests_total\{method="other",route="\/plants",status="405"\} 1$/m),
      );
  });
});

describe("the admin listener against hostile clients, as the service's", () => {
  let admin: RunningAdmin;
  beforeAll(async () => {
    admin = await startAdmin(
      () => ({ ready: true }),
      new ServiceMetrics({ outage: { isOut: false, refusedTotal: 0 } }),
      { headersTimeoutMs: 300, requestTimeoutMs: 600, maxConnections: 4 },
    );
  });
  afterAll(() => admin.stop());

  it('answers 413 for a body over its limit, declared or streamed, and serves the next request', async () => {
    const declared = await admin.get('/readyz', { headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(2_000) });
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe('close');
    expect((await admin.get('/readyz', { body: Buffer.alloc(5_000_000, 0x20) })).status).toBe(413);
    expect((await admin.get('/livez')).status).toBe(200);
  });

  it('answers with an Error body on the socket for what node:http cannot parse, and for CONNECT', async () => {
    const garbage = await rawExchange(admin.port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage).toContain(`{"error":${ERROR_NUMBERS.bad_request},`);
    const hugeHeaders = await rawExchange(admin.port, `GET /livez HTTP/1.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(hugeHeaders).toMatch(/^HTTP\/1\.1 431 /);
    const tunnel = await rawExchange(admin.port, 'CONNECT example.com:443 HTTP/1.1\r\n\r\n');
    expect(tunnel).toMatch(/^HTTP\/1\.1 404 /);
    expect(tunnel).toContain(`{"error":${ERROR_NUMBERS.not_found},`);
  });

  it('answers a request line of HTTP/2.0 or 0.9 with 505 and an Error body, and serves HTTP/1.0', async () => {
    for (const version of ['HTTP/2.0', 'HTTP/0.9']) {
      const refused = await rawExchange(admin.port, `GET /livez ${version}\r\nHost: x\r\n\r\n`);
      expect(refused).toMatch(/^HTTP\/1\.1 505 /);
      expect(refused).toContain(`{"error":${ERROR_NUMBERS.http_version_not_supported},`);
      const body = refused.slice(refused.indexOf('\r\n\r\n') + 4);
      expectDocumented({ status: 505, headers: { 'content-type': 'application/json' }, body }, '/livez');
    }
    expect(await rawExchange(admin.port, 'GET /livez HTTP/1.0\r\n\r\n')).toMatch(
      /^HTTP\/1\.1 200 [^]*\{"status":"live"\}$/,
    );
  });

  it('answers 408 to a client whose headers never finish, and to a body that trickles in', async () => {
    expect(await rawExchange(admin.port, 'GET /livez HTTP/1.1\r\nHost: x\r\n')).toMatch(/^HTTP\/1\.1 408 /);
    const socket = await new Promise<Socket>((resolve) => {
      const opened = connect(admin.port, '127.0.0.1', () => resolve(opened));
    });
    const received = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
    });
    socket.write('GET /livez HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
    const trickle = setInterval(() => socket.write(' '), 100);
    const answer = await received;
    clearInterval(trickle);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes connections beyond its cap as they arrive', async () => {
    const sockets = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          new Promise<Socket>((resolve) => {
            const socket = connect(admin.port, '127.0.0.1', () => resolve(socket));
            socket.on('error', () => undefined);
          }),
      ),
    );
    const closed = await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<boolean>((resolve) => {
            socket.once('close', () => resolve(true));
            setTimeout(() => resolve(false), 200).unref();
          }),
      ),
    );
    expect(closed.filter(Boolean).length).toBe(2);
    for (const socket of sockets) socket.destroy();
  });
});
