import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { startServer } from '../../test/helpers/serve-process.js';
import { benchDir } from './fixtures.js';
import { ROOT } from './process.js';

export interface Server {
  url: string;
  /** The server's process. */
  pid: number;
  token: string;
  store: string;
  stop(): Promise<void>;
}

const TOKEN = 'bench-token-0123456789abcdef';

async function started(child: ChildProcess, what: string): Promise<string> {
  const lines = createInterface({ input: child.stdout! });
  const first = await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => undefined)]);
  if (first === undefined) throw new Error(`${what} did not start`);
  lines.close();
  child.stdout!.resume();
  return (first as [string])[0];
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
}

/**
 * A real `plants serve`, port 0, no request log (the tests' own): on a fresh store in a temp dir,
 * on the store file `store`, or on the PostgreSQL database at `database`; with `flags` besides.
 */
export async function plantsServe(on: { database?: string; store?: string; flags?: string[] } = {}): Promise<Server> {
  const args = [
    ...(on.database !== undefined ? ['--database', on.database] : on.store !== undefined ? ['--store', on.store] : []),
    ...(on.flags ?? []),
  ];
  const server = await startServer(benchDir('serve'), args);
  return { ...server, pid: server.child.pid as number, stop: async () => void (await server.stop()) };
}

/** The bare node:http baseline server. */
export async function bareServer(): Promise<Server> {
  const child = spawn(process.execPath, [`${ROOT}bench/baselines/bare-server.mjs`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return {
    url: await started(child, 'the bare server'),
    pid: child.pid as number,
    token: TOKEN,
    store: '',
    stop: stopper(child),
  };
}
