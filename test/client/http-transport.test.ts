import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../src/client/http-client.js';
import type { PlantsClientOptions } from '../../src/client/client-options.js';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server on 127.0.0.1 that holds every request until `release` is called, and counts its connections. */
async function holdingServer(onRequest: (held: number) => void) {
  const held: ServerResponse[] = [];
  const sockets = new Set<Socket>();
  let mostHeld = 0;
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      held.push(response);
      mostHeld = Math.max(mostHeld, held.length);
      onRequest(held.length);
    });
  });
  server.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release() {
      for (const response of held.splice(0)) response.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"x"}');
    },
    connections: () => sockets.size,
    mostHeld: () => mostHeld,
  };
}

function options(baseUrl: string, more: Partial<PlantsClientOptions> = {}): PlantsClientOptions {
  return { baseUrl, token: 'tok', timeoutSeconds: 30, env: {}, userAgent: 'plants/test', ...more };
}

describe('the node:http transport', () => {
  it('sends a pool of requests at once, over `connections` sockets at most', async () => {
    const connections = 4;
    // Each round is answered once `connections` requests are there at once: were they sent one
    // after another, none would be answered, and the test would not end.
    const service = await holdingServer((held) => {
      if (held === connections) service.release();
    });
    const transport = await createHttpTransport(options(service.url, { connections }));
    try {
      const answers = await Promise.all(Array.from({ length: 5 * connections }, (_, i) => transport.request('POST', '/plants', `{"id":${i},"name":"x"}`)));
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 5 * connections }, () => 200));
      // Never more in flight than sockets, and every socket kept alive from one round to the next.
      expect(service.mostHeld()).toBe(connections);
      expect(service.connections()).toBe(connections);
    } finally {
      await transport.close();
    }
  });

  it('reads Retry-After, which the client then waits out', async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(503, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"error":1009,"message":"busy"}'));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const transport = await createHttpTransport(options(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connections: 2 }));
    try {
      expect(await transport.request('POST', '/plants', '{"id":1,"name":"x"}')).toMatchObject({ status: 503, retryAfter: '7' });
    } finally {
      await transport.close();
    }
  });

  it('abandons the requests in flight on a stop, and sends none after it', async () => {
    const stop = new AbortController();
    const service = await holdingServer((held) => {
      if (held === 2) stop.abort();
    });
    const transport = await createHttpTransport(options(service.url, { connections: 2, stop: stop.signal }));
    try {
      const outcomes = await Promise.allSettled([transport.request('POST', '/plants', '{}'), transport.request('POST', '/plants', '{}')]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
      await expect(transport.request('GET', '/plants/1')).rejects.toThrow(/abandoned: stopped/);
      expect(service.mostHeld()).toBe(2);
    } finally {
      await transport.close();
    }
  });
});
