import type { ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PlantsClientOptions } from '../../src/client/client-options.js';
import { createTransport } from '../../src/client/plants-client.js';
import { IDLE_MS, type Method, type Transport } from '../../src/client/transport.js';
import { fakeProxy, type FakeProxy } from '../helpers/fake-proxy.js';
import { answerPlant, answersPlant, scriptedServer } from '../helpers/scripted-server.js';
import type { Script, ScriptedServer } from '../helpers/scripted-server.js';

// The contract of a transport (src/client/transport.ts), held on both routes a request may take:
// straight to the service, and through a real (if small) forward proxy's CONNECT tunnel.

let proxy: FakeProxy;
beforeAll(async () => {
  proxy = await fakeProxy();
});
afterAll(async () => {
  await proxy.close();
});

const routes = [
  { route: 'straight to the service', proxied: false },
  { route: 'through a proxy', proxied: true },
];

/** What a settled request came to: its answer, or what it failed with. */
function outcomes(settled: PromiseSettledResult<unknown>[]): unknown[] {
  return settled.map((outcome) => (outcome.status === 'rejected' ? outcome.reason : outcome.value));
}

describe.each(routes)('a transport, $route', ({ proxied }) => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const thing of open.splice(0).reverse()) await thing.close();
    proxy.hang(false);
  });

  async function serving(script: Script): Promise<ScriptedServer> {
    const server = await scriptedServer(script);
    open.push(server);
    return server;
  }

  /** A transport to `baseUrl`, through `through` (the proxy of the route, by default). */
  async function transportTo(baseUrl: string, more: Partial<PlantsClientOptions> = {}, through = proxy.url) {
    const env = proxied ? { HTTP_PROXY: through } : {};
    const options = { baseUrl, token: 'tok', timeoutSeconds: 30, env, userAgent: 'plants/test', ...more };
    const transport = await createTransport(options);
    open.push(transport);
    return transport;
  }

  const post = (transport: Transport, body = '{}') => transport.request('POST', '/plants', body);

  it('sends a pool of requests at once, over `connections` connections at most, each kept alive', async () => {
    const connections = 4;
    const held: ServerResponse[] = [];
    let mostHeld = 0;
    // Each round is answered once `connections` requests are there at once: were they sent one
    // after another, none would be answered, and the test would not end.
    const service = await serving((_request, response) => {
      held.push(response);
      mostHeld = Math.max(mostHeld, held.length);
      if (held.length === connections) for (const each of held.splice(0)) answerPlant(each);
    });
    const transport = await transportTo(service.url, { connections });
    const sent = Array.from({ length: 5 * connections }, (_, i) => post(transport, `{"id":${i},"name":"x"}`));
    expect((await Promise.all(sent)).map((answer) => answer.status)).toEqual(sent.map(() => 200));
    expect(mostHeld).toBe(connections);
    expect(service.connections()).toBe(connections);
  });

  it('reads Retry-After, which the client then waits out', async () => {
    const service = await serving((_request, response) => {
      response.writeHead(503, { 'retry-after': '7', 'content-type': 'application/json' });
      response.end('{"error":1009,"message":"busy"}');
    });
    const transport = await transportTo(service.url, { connections: 2 });
    expect(await post(transport)).toMatchObject({ status: 503, retryAfter: '7' });
  });

  it('bounds the whole exchange by the time-out: an answer that trickles in past it fails, as sent', async () => {
    // The headers at once, then a byte of the body every 100 ms for 3 s: each wait is short.
    const service = await serving((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '30' });
      let sent = 0;
      const timer = setInterval(() => {
        if (response.destroyed || sent === 30) return void clearInterval(timer);
        response.write(' ');
        sent += 1;
      }, 100);
    });
    const transport = await transportTo(service.url, { timeoutSeconds: 0.8 });
    await expect(transport.request('GET', '/plants/1')).rejects.toMatchObject({ code: 'answer_timeout', sent: true });
  });

  it('fails an answer held past the time-out as sent: answer_timeout', async () => {
    const service = await serving(() => undefined);
    const transport = await transportTo(service.url, { timeoutSeconds: 0.3 });
    await expect(post(transport)).rejects.toMatchObject({ code: 'answer_timeout', sent: true });
    expect(service.seen).toEqual(['POST /plants']);
  });

  it.runIf(!proxied)('reads an answer slower than the idle bound of a connection, within the time-out', async () => {
    const service = await serving((_request, response) => setTimeout(() => answerPlant(response), IDLE_MS + 300));
    const transport = await transportTo(service.url, { timeoutSeconds: 10 });
    expect((await transport.request('GET', '/plants/1')).status).toBe(200);
  });

  it('abandons the requests in flight on a stop, and sends none after it', async () => {
    const stop = new AbortController();
    let held = 0;
    const service = await serving(() => {
      held += 1;
      if (held === 2) stop.abort();
    });
    const transport = await transportTo(service.url, { connections: 2, stop: stop.signal });
    expect(outcomes(await Promise.allSettled([post(transport), post(transport)]))).toMatchObject([
      { code: 'aborted', sent: true },
      { code: 'aborted', sent: true },
    ]);
    await expect(transport.request('GET', '/plants/1')).rejects.toMatchObject({ code: 'aborted', sent: false });
    expect(service.seen).toHaveLength(2);
  });

  it('abandons, on a stop, the requests waiting for a connection too: not sent', async () => {
    const stop = new AbortController();
    const service = await serving(() => stop.abort());
    const transport = await transportTo(service.url, { connections: 1, stop: stop.signal });
    expect(outcomes(await Promise.allSettled([post(transport), post(transport)]))).toMatchObject([
      { code: 'aborted', sent: true },
      { code: 'aborted', sent: false },
    ]);
    expect(service.seen).toHaveLength(1);
  });

  it('fails a connection closed before an answer as sent: reset_before_answer', async () => {
    const service = await serving((_request, _response, { socket }) => socket.destroy());
    const transport = await transportTo(service.url);
    await expect(post(transport)).rejects.toMatchObject({ code: 'reset_before_answer', sent: true });
  });

  it('stops reading an answer over 1 MiB: answer_too_large, sent', async () => {
    const service = await serving((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(1024 * 1024 + 1)}"`);
    });
    const transport = await transportTo(service.url);
    await expect(transport.request('GET', '/plants/1')).rejects.toMatchObject({
      code: 'answer_too_large',
      sent: true,
      message: 'the service answered HTTP 200 with a body over 1048576 bytes',
    });
  });

  it('fails a refused connection as not sent: connect_refused (through a dead proxy: the proxy named)', async () => {
    const service = await serving(answersPlant);
    await service.close();
    const dead = await scriptedServer(answersPlant);
    await dead.close();
    const transport = await transportTo(service.url, { timeoutSeconds: 5 }, dead.url);
    const named = proxied ? { proxy: dead.url } : {};
    await expect(post(transport)).rejects.toMatchObject({ code: 'connect_refused', sent: false, ...named });
  });

  describe('a kept-alive connection the service closed as it was reused', () => {
    /** Each connection's first request is answered; the next one is read, and the connection closed unanswered. */
    const closingOnReuse: Script = (_request, response, { socket, served }) => {
      if (served === 0) answerPlant(response);
      else socket.destroy();
    };

    it('sends a GET again on a new connection: a read changes nothing', async () => {
      const service = await serving(closingOnReuse);
      const transport = await transportTo(service.url);
      expect((await transport.request('GET', '/plants/1')).status).toBe(200);
      expect((await transport.request('GET', '/plants/2')).status).toBe(200);
      expect(service.seen).toEqual(['GET /plants/1', 'GET /plants/2', 'GET /plants/2']);
      expect(service.connections()).toBe(2);
    });

    const writes: Method[] = ['POST', 'PUT', 'PATCH', 'DELETE'];
    it.each(writes)('does not send a %s again: it may have been applied', async (method) => {
      const service = await serving(closingOnReuse);
      const transport = await transportTo(service.url);
      expect((await transport.request('GET', '/plants/1')).status).toBe(200);
      const sending = transport.request(method, '/plants/2', method === 'DELETE' ? undefined : '{"name":"x"}');
      await expect(sending).rejects.toMatchObject({ code: 'reset_before_answer', sent: true });
      expect(service.seen).toEqual(['GET /plants/1', `${method} /plants/2`]);
    });

    it('does not send a GET again where the connection was new: the service closed it on purpose', async () => {
      const service = await serving((_request, _response, { socket }) => socket.destroy());
      const transport = await transportTo(service.url);
      const reading = transport.request('GET', '/plants/1');
      await expect(reading).rejects.toMatchObject({ code: 'reset_before_answer', sent: true });
      expect(service.seen).toEqual(['GET /plants/1']);
    });
  });

  it("does not reuse a connection left idle past the service's Keep-Alive hint: no POST meets its close", async () => {
    // `Keep-Alive: timeout=2`, and a request that comes on a connection idle for longer closes it
    // unanswered: what a service that closes idle connections does to a request that crosses
    // its close. The client must have let the connection go before (a second before the hint).
    const service = await serving((_request, response, { socket, idleMs, served }) => {
      if (served > 0 && idleMs >= 2_000) return void socket.destroy();
      answerPlant(response, { 'keep-alive': 'timeout=2' });
    });
    const transport = await transportTo(service.url);
    expect((await post(transport, '{"id":1,"name":"x"}')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await post(transport, '{"id":2,"name":"x"}')).status).toBe(200);
    expect(service.connections()).toBe(2);
  });

  it.runIf(proxied)('fails a tunnel the proxy never makes as not sent: connect_timeout', async () => {
    const service = await serving(answersPlant);
    proxy.hang();
    const transport = await transportTo(service.url, { timeoutSeconds: 0.3 });
    await expect(post(transport)).rejects.toMatchObject({ code: 'connect_timeout', sent: false });
    expect(service.seen).toEqual([]);
  });

  it.runIf(proxied)('fails a tunnel the proxy refuses (no way to the service), not sent: connect_failed', async () => {
    const service = await serving(answersPlant);
    await service.close();
    const transport = await transportTo(service.url);
    await expect(post(transport)).rejects.toMatchObject({
      code: 'connect_failed',
      sent: false,
      proxy: proxy.url,
      message: 'the proxy answered HTTP 502 to the tunnel',
    });
  });

  it.runIf(proxied)("sends the proxy URL's user name and password to the proxy, and only to it", async () => {
    const seenByService: (string | undefined)[] = [];
    const service = await serving((request, response) => {
      seenByService.push(request.headers['proxy-authorization']);
      answerPlant(response);
    });
    const url = new URL(proxy.url);
    url.username = 'me';
    url.password = 's3cret';
    const transport = await transportTo(service.url, {}, url.href);
    await transport.request('GET', '/plants/1');
    expect(proxy.credentials.at(-1)).toBe(`Basic ${Buffer.from('me:s3cret').toString('base64')}`);
    expect(seenByService).toEqual([undefined]);
  });
});
