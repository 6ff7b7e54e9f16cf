import autocannon from 'autocannon';
import { figure, type Figure, type Sizes } from './lib/figure.js';
import { median } from './lib/process.js';
import { bareServer, plantsServe, type Server } from './lib/servers.js';

/** Durable creates per second from 50 connections, spread over `servers` (one more id each request, from `firstId`). */
export async function createsPerSecond(servers: Server | Server[], seconds: number, firstId = 1): Promise<number> {
  const all = Array.isArray(servers) ? servers : [servers];
  const server = all[0] as Server;
  let id = firstId - 1;
  const result = await autocannon({
    // autocannon takes several URLs and spreads the connections over them; its types say one.
    url: (all.length === 1 ? server.url : all.map((each) => each.url)) as string,
    connections: 50,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/plants',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: `{"id":${(id += 1)},"name":"plant ${id}","tag":"bench"}` }),
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors from ${all.map((each) => each.url).join(', ')}`);
  return result['2xx'] / seconds;
}

/** Durable creates per second of a server started for this run alone. */
export async function measuredServer(start: () => Promise<Server>, seconds: number, firstId = 1): Promise<number> {
  const server = await start();
  try {
    return await createsPerSecond(server, seconds, firstId);
  } finally {
    await server.stop();
  }
}

export async function serveThroughput(sizes: Sizes): Promise<Figure> {
  // In turns, as the start-up figures are, so that a burst of other work on the machine falls on both.
  const ours: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < sizes.serveRuns; i += 1) {
    ours.push(await measuredServer(plantsServe, sizes.serveSeconds));
    bare.push(await measuredServer(bareServer, sizes.serveSeconds));
  }
  return figure(7, 'plants serve: durable creates/s, 50 connections', 'req/s', median(ours), median(bare), { op: '>=', value: 0.6, of: 'ratio' }, 'baseline: bare node:http, JSON.parse, 200');
}

