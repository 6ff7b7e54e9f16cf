import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isolatedEnv, startPlants, startPlantsLimited } from './cli-process.js';
import { waitFor } from './wait-for.js';

export interface RunningServer {
  url: string;
  token: string;
  store: string;
  child: ChildProcess;
  /** What the server wrote on stderr so far. */
  log(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The admin listener's URL (--admin-port), from the line serve writes once it listens. */
export async function adminUrl(server: Pick<RunningServer, 'log'>): Promise<string> {
  await waitFor('the admin line', () => /admin .* on http:\/\/\S+/.test(server.log()));
  return /admin .* on (http:\/\/[\d.:]+)/.exec(server.log())?.[1] as string;
}

/** Where a `plants serve` run with isolatedEnv(home) keeps its data: its token, the records of where it serves. */
export function servedDataDir(home: string): string {
  return join(home, '.local/share/plants');
}

/**
 * The real `plants serve` on 127.0.0.1, port 0 (unless `extraArgs` name one), with its store in
 * `home`, unless `extraArgs` or
 * `env` name a store or a database. `keptToken`: given no token, it accepts (and keeps) its own,
 * in servedDataDir(home). `programFlags` go before the command: `plants --no-color serve …`.
 * `openFiles`: the most descriptors it may have open (ulimit -n).
 */
export async function startServer(
  home: string,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
  { keptToken = false, programFlags = [] as string[], openFiles = undefined as number | undefined } = {},
): Promise<RunningServer> {
  let token = 'server-test-token-1234567890';
  const store = join(home, 'served.json');
  const storeArgs =
    extraArgs.includes('--database') || extraArgs.includes('--store') || env.PLANTS_DATABASE_URL !== undefined
      ? []
      : ['--store', store];
  const tokenArgs = keptToken ? [] : ['--token', token];
  const portArgs = extraArgs.includes('--port') ? [] : ['--port', '0'];
  const args = [...programFlags, 'serve', ...portArgs, ...tokenArgs, ...storeArgs, '--quiet', ...extraArgs];
  const child =
    openFiles === undefined
      ? startPlants(args, isolatedEnv(home, env))
      : startPlantsLimited(openFiles, args, isolatedEnv(home, env));
  let log = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const lines = createInterface({ input: child.stdout! });
  const [url] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [undefined])])) as [
    string | undefined,
  ];
  if (url === undefined) throw new Error(`plants serve did not start: ${log}`);
  if (keptToken) token = (await readFile(join(servedDataDir(home), 'server-token'), 'utf8')).trim();
  return {
    url,
    token,
    store,
    child,
    log: () => log,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const [code] = (await once(child, 'exit')) as [number | null];
      return code;
    },
  };
}
