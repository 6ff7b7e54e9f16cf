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

/**
 * A service that closes a kept-alive connection as a request reuses it: each connection's first
 * request is answered, its next one is read and the connection closed without an answer (what a
 * keep-alive timeout on the service's side does to a request that crosses it).
 */
async function closingOnReuse() {
  const seen: string[] = [];
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      const socket = request.socket as Socket & { answered?: number };
      socket.answered = (socket.answered ?? 0) + 1;
      seen.push(`${request.method} ${request.url} ${socket.answered === 1 ? 'answered' : 'closed'}`);
      if (socket.answered > 1) return void socket.destroy();
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"x"}');
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('a kept-alive connection the service closed as it was reused', () => {
  it('sends a GET again on a new connection: a read changes nothing', async () => {
    const service = await closingOnReuse();
    const transport = await createHttpTransport(options(service.url));
    try {
      expect((await transport.request('GET', '/plants/1')).status).toBe(200);
      expect((await transport.request('GET', '/plants/2')).status).toBe(200);
      expect(service.seen).toEqual(['GET /plants/1 answered', 'GET /plants/2 closed', 'GET /plants/2 answered']);
    } finally {
      await transport.close();
    }
  });

  it('sends nothing else again: a POST, PUT or DELETE may have been applied', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const service = await closingOnReuse();
      const transport = await createHttpTransport(options(service.url));
      try {
        expect((await transport.request('GET', '/plants/1')).status).toBe(200);
        await expect(transport.request(method, '/plants/2', method === 'DELETE' ? undefined : '{"id":2,"name":"x"}')).rejects.toMatchObject({ code: 'ECONNRESET' });
        expect(service.seen).toEqual(['GET /plants/1 answered', `${method} /plants/2 closed`]);
      } finally {
        await transport.close();
        server?.closeAllConnections();
        await new Promise((resolve) => server?.close(resolve));
        server = undefined;
      }
    }
  });

  it('does not send a GET again where the connection was new: the service closed it on purpose', async () => {
    const seen: string[] = [];
    server = createServer((request: IncomingMessage) => {
      request.resume();
      request.on('end', () => {
        seen.push(`${request.method} ${request.url}`);
        request.socket.destroy();
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const transport = await createHttpTransport(options(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
    try {
      await expect(transport.request('GET', '/plants/1')).rejects.toMatchObject({ code: 'ECONNRESET' });
      expect(seen).toEqual(['GET /plants/1']);
    } finally {
      await transport.close();
    }
  });
});
