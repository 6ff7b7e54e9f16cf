import autocannon from 'autocannon';
import { cpuSeconds } from './lib/cpu.js';
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
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(
      `${result.non2xx} non-2xx answers and ${result.errors} errors from ${all.map((each) => each.url).join(', ')}`,
    );
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
  return figure(
    7,
    'plants serve: durable creates/s, 50 connections',
    'req/s',
    median(ours),
    median(bare),
    { op: '>=', value: 0.6, of: 'ratio' },
    'baseline: bare node:http, JSON.parse, 200',
  );
}

/** As measuredServer, and the server's CPU time a request (µs), which another load on the machine blurs less. */
async function measuredWithCpu(
  start: () => Promise<Server>,
  seconds: number,
): Promise<{ rate: number; cpuMicros: number }> {
  const server = await start();
  try {
    const before = cpuSeconds(server.pid);
    const rate = await createsPerSecond(server, seconds);
    return { rate, cpuMicros: ((cpuSeconds(server.pid) - before) / (rate * seconds)) * 1e6 };
  } finally {
    await server.stop();
  }
}

/**
 * What the admin listener costs the service: its metrics are kept on every request and every
 * batch (request ids are on either way). In turns, as above; nothing scrapes during the runs.
 */
export async function adminPortCost(sizes: Sizes): Promise<Figure> {
  const on: { rate: number; cpuMicros: number }[] = [];
  const off: { rate: number; cpuMicros: number }[] = [];
  for (let i = 0; i < sizes.serveRuns; i += 1) {
    on.push(await measuredWithCpu(() => plantsServe({ flags: ['--admin-port', '0'] }), sizes.serveSeconds));
    off.push(await measuredWithCpu(() => plantsServe(), sizes.serveSeconds));
  }
  const cpu = (runs: { cpuMicros: number }[]) => median(runs.map((run) => run.cpuMicros)).toFixed(1);
  return figure(
    20,
    'plants serve with --admin-port (metrics on): durable creates/s',
    'req/s',
    median(on.map((run) => run.rate)),
    median(off.map((run) => run.rate)),
    { op: '>=', value: 0.95, of: 'ratio' },
    `baseline: the same without --admin-port; the server's CPU a request: ${cpu(on)} µs on, ${cpu(off)} µs off`,
  );
}
