import { PlantsError } from '../../../core/errors.js';
import { printable, printableMessage } from '../../../core/printable.js';
import { ioReason } from '../../../fs/io-reason.js';
import { maskedDatabaseUrl } from '../../../store/postgres/database-url.js';
import type { ListeningAddress } from '../../../server/index.js';
import type { StoreLocation } from '../../../store/open-store.js';
import type { CommandImplementation } from '../../command-implementation.js';
import { usageError } from '../../command-spec.js';
import { Settings } from '../../config/resolve.js';
import { loopbackUrls, recordServe, serveRecordsPath } from '../../config/serve-record.js';
import { keepServerToken } from '../../config/server-token.js';
import { checkToken } from '../../config/settings.js';
import type { Context } from '../../context.js';
import type { StopSignal } from '../../exit-codes.js';
import { isDatabaseUrl } from './database-url.js';
import { messageLine, type LogFormat, type LogLevel } from '../../../server/log-line.js';
import { adminAddress, prepareAdmin, type AdminOptions } from './admin.js';
import { connectionCaps, OPEN_FILES_HINT, startRefusedForDescriptors } from './open-files.js';
import { renderHuman, renderJson, type ServeResult } from './render.js';

export interface ServeOptions extends AdminOptions {
  host: string;
  port: number;
  /** A store file (--store) or a database (--database, as given: checked when it runs); else as the settings say. */
  store?: string;
  database?: string;
  /** Connections to the database at most. */
  pool: number;
  /** As given (--store-wait): checked when it runs, as PLANTS_STORE_WAIT. */
  storeWait?: string;
  /** The tokens it accepts (--token); else as PLANTS_SERVER_TOKENS says, else the one it keeps. */
  tokens: string[];
  quiet: boolean;
  logFormat: LogFormat;
  shutdownDelaySeconds: number;
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
} satisfies CommandImplementation<ServeOptions, ServeResult>;

async function run(options: ServeOptions, ctx: Context): Promise<ServeResult> {
  if (options.database !== undefined && !isDatabaseUrl(options.database))
    throw usageError('serve', '--database must be a postgresql:// (or postgres://) URL');
  const {
    AcceptOutage,
    BatchingStore,
    createPlantServer,
    DEFAULT_LIMITS,
    listen,
    stopServer,
    StoreOutage,
    watchWrites,
  } = await import('../../../server/index.js');
  const adminAt = adminAddress(options, ctx);
  const location = await storeLocation(options, ctx);
  const { tokens, kept } = serverTokens(options, ctx);
  const stderr = ctx.io.stderr;
  const format = options.logFormat;
  const at = () => new Date(ctx.now()).toISOString();
  const log = (line: string) => void stderr.write(`${line}\n`);
  // What serve says of itself: in text as always (its own lines unstamped), in JSON a log entry.
  const say = (message: string, level: LogLevel = 'info') => log(messageLine(format, at(), level, message, false));
  // The server's own failures (store trouble, bugs) are reported even with --quiet; a store that
  // keeps failing, once as it starts and once as it ends.
  const outage = new StoreOutage(
    (error, requestId) =>
      log(
        messageLine(
          format,
          at(),
          'error',
          `error: ${printableMessage(error instanceof Error ? error.message : String(error), Infinity)}`,
          true,
          requestId,
        ),
      ),
    (line) => log(messageLine(format, at(), 'warn', line)),
    // Asked only once the server runs, on the store it serves (made below, with the admin listener).
    (): Promise<void> => store.probe(),
  );
  // Read now: a store that is not ours, or a database that is down, stops the server before it
  // listens, not at the first request.
  // What the store says of itself as it opens (PostgreSQL: a search without its index), said once.
  const noted =
    location.kind === 'postgres'
      ? { ...location, onNote: (note: string) => say(`plants serve: ${note}`, 'warn') }
      : location;
  const inner = await ctx.openStore(noted).catch((error: unknown) => {
    throw startRefusedForDescriptors(error, 'open the store') ?? error;
  });
  let stopping = false;
  // The service listener's refusals of connections, watched once both listen: its cap depends on
  // the descriptors they take.
  const accepting = new AcceptOutage((line) => log(messageLine(format, at(), 'warn', line)));
  const admin =
    adminAt === undefined
      ? undefined
      : await prepareAdmin(adminAt, {
          outage,
          accepting,
          stopping: () => stopping,
          store: inner,
          onUnexpectedError: (error) => outage.failed(error),
        });
  // On a database, two batches in flight: one commits while the next is sent. More would split
  // the same load into smaller batches, each paying a commit (docs/postgresql.md).
  const store = new BatchingStore(inner, location.kind === 'postgres' ? Math.min(2, options.pool) : 1, admin?.onBatch);
  const shownStore =
    location.kind === 'postgres' ? `${maskedDatabaseUrl(location.url)} (pool ${options.pool})` : location.path;
  const server = createPlantServer({
    store: watchWrites(store, () => outage.wrote()),
    tokens,
    ...(options.quiet ? {} : { log, logFormat: format }),
    ...(admin === undefined ? {} : { observer: admin.observer }),
    onUnexpectedError: (error, requestId) => outage.failed(error, requestId),
  });
  let address;
  try {
    address = await listen(server, options.port, options.host);
  } catch (error) {
    throw cannotListen(options.host, options.port, error);
  }
  let adminAddressBound;
  let caps;
  try {
    adminAddressBound = await admin?.start();
    caps = connectionCaps(ctx, location, {
      service: DEFAULT_LIMITS.maxConnections,
      ...(admin === undefined ? {} : { admin: DEFAULT_LIMITS.maxConnections }),
    });
  } catch (error) {
    await admin?.stop();
    await stopServer(server);
    await store.close();
    throw error;
  }
  server.maxConnections = caps.service.connections;
  if (caps.admin !== undefined) admin?.capConnections(caps.admin);
  accepting.watch(server, caps.service);
  // Listened for before the base URL is printed: a script that reads it and stops the server at
  // once must find it stopping cleanly, not killed by the signal's default action.
  const stopSignal = new Promise<StopSignal>((resolve) => ctx.onStopSignal(resolve));
  // Recorded before the base URL is printed: a script that reads it and runs plants login finds it.
  const forget = kept === undefined ? undefined : recordWhereServed(ctx, address);
  // The one line a script reads: the base URL, with the real port.
  ctx.io.stdout.write(`${address.url}\n`);
  say(`plants serve: listening on ${address.url}, store ${printable(shownStore, Infinity)}`);
  const { connections, openFiles } = caps.service;
  if (openFiles !== undefined)
    say(
      `plants serve: at most ${connections} ${connections === 1 ? 'connection' : 'connections'}: the limit of ` +
        `open files (ulimit -n ${openFiles}) leaves room for no more`,
      'warn',
    );
  if (adminAddressBound !== undefined)
    say(`plants serve: admin (/livez, /readyz, /metrics, /openapi.json) on ${adminAddressBound.url}`);
  if (kept !== undefined) {
    // Never the token itself: a terminal's scrollback and a log are no place for it.
    say(
      `plants serve: no token configured: accepting the one in ${printable(kept.path, Infinity)}` +
        `${kept.made ? ' (made now)' : ''}. Log in with:`,
    );
    say(`  plants login --base-url ${address.url}`);
    say(`(on this machine it finds that file itself; elsewhere, add --with-token < a copy of it)`);
  }
  const signal = await stopSignal;
  stopping = true;
  if (options.shutdownDelaySeconds > 0) {
    // A load balancer sees /readyz fail and stops sending; what it sends meanwhile is served.
    say(
      `plants serve: ${signal}: not ready; serving ${options.shutdownDelaySeconds} s more, then finishing ` +
        'requests in flight',
    );
    await new Promise((resolve) => setTimeout(resolve, options.shutdownDelaySeconds * 1000));
  } else say(`plants serve: ${signal}: finishing requests in flight`);
  await stopServer(server);
  outage.stopped();
  accepting.stopped();
  // It listens no more. (A serve killed leaves its record, which names a process that is gone.)
  forget?.();
  // Every write acknowledged is durable already: this waits for those still being written.
  await store.close();
  await admin?.stop();
  say('plants serve: stopped');
  return { stoppedBy: signal };
}

/**
 * Records where this serve listens, for plants login to send it the kept token there and nowhere
 * else. A record that cannot be written costs only that: a warning, and a login with --with-token.
 */
function recordWhereServed(ctx: Context, address: ListeningAddress): (() => void) | undefined {
  const urls = loopbackUrls(address.host, address.port);
  if (urls.length === 0) return undefined;
  try {
    return recordServe(ctx, { pid: ctx.pid, urls }, address.port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    ctx.io.stderr.write(
      `plants serve: warning: cannot record where it serves in ${serveRecordsPath(ctx.dataDir)} (${code}): ` +
        'plants login will not find its token; use plants login --with-token\n',
    );
    return undefined;
  }
}

/** --store-wait, else PLANTS_STORE_WAIT, else 10 s: in milliseconds. */
function storeWaitMs(options: ServeOptions, ctx: Context): number {
  const [text, named] =
    options.storeWait !== undefined
      ? [options.storeWait, '--store-wait']
      : [ctx.env.PLANTS_STORE_WAIT ?? '', 'PLANTS_STORE_WAIT'];
  if (text === '') return 10_000;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds < 0.001 || seconds > 3600)
    throw usageError(
      'serve',
      `${named} must be a number of seconds from 0.001 to 3600 (e.g. 10 or 0.5), got ${JSON.stringify(text)}`,
    );
  return Math.round(seconds * 1000);
}

/** Why serve cannot listen where its flags say, in words, with what to do: a usage error (exit 2). */
function cannotListen(host: string, port: number, error: unknown): PlantsError {
  const code = (error as NodeJS.ErrnoException).code;
  const why: Record<string, [string, string]> = {
    EADDRINUSE: [
      'the port is in use: another process listens there',
      '--port 0 picks a free port (the first line printed says which)',
    ],
    EACCES: [
      'permission denied: ports below 1024 need privileges',
      'give a --port from 1024 (or 0, for any free port)',
    ],
    ENOTFOUND: [
      'no such host',
      'give --host an address of this machine: 127.0.0.1 (the default), ::1, or 0.0.0.0 for every address',
    ],
    EAI_AGAIN: [
      'the host name could not be looked up',
      'give --host an address of this machine: 127.0.0.1 (the default), ::1, or 0.0.0.0 for every address',
    ],
    EADDRNOTAVAIL: [
      'the address is not one of this machine',
      'give --host an address of this machine: 127.0.0.1 (the default), ::1, or 0.0.0.0 for every address',
    ],
    EMFILE: ['too many open files', OPEN_FILES_HINT],
    ENFILE: ['too many open files in the system', "close some programs, or raise the system's limit (fs.file-max)"],
  };
  const [words, hint] = why[code ?? ''] ?? [ioReason(error), 'see plants serve --help'];
  return new PlantsError(
    'usage',
    `cannot listen on ${host}:${port}: ${words}${code === undefined || why[code] === undefined ? '' : ` (${code})`}`,
    { cause: error, hint },
  );
}

/**
 * The --database or --store flag; else PLANTS_DATABASE_URL, the deliberate choice of a shared
 * database, over the store path of PLANTS_STORE or the config file.
 */
async function storeLocation(options: ServeOptions, ctx: Context): Promise<StoreLocation> {
  const waitMs = storeWaitMs(options, ctx);
  const url = options.database ?? (options.store === undefined ? ctx.env.PLANTS_DATABASE_URL : undefined) ?? '';
  if (url !== '') {
    if (!isDatabaseUrl(url))
      throw usageError('serve', 'PLANTS_DATABASE_URL must be a postgresql:// (or postgres://) URL');
    return { kind: 'postgres', url, poolSize: options.pool, waitMs };
  }
  const settings = await Settings.load(ctx, { store: options.store });
  // A service that could never take a write is refused as it starts: a store made read-only is a mistake of its setup.
  return { kind: 'file', path: settings.require('store'), waitMs, writing: true };
}

/**
 * --token flags, else PLANTS_SERVER_TOKENS (comma-separated), else the token kept in the data
 * directory (made on first use): the service never runs without authentication, and a login
 * survives a restart.
 */
function serverTokens(
  options: ServeOptions,
  ctx: Context,
): { tokens: string[]; kept?: { path: string; made: boolean } } {
  const fromEnv = (ctx.env.PLANTS_SERVER_TOKENS ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');
  const tokens = options.tokens.length > 0 ? options.tokens : fromEnv;
  if (tokens.length > 0) return { tokens: tokens.map(checkToken) };
  const { token, path, made } = keepServerToken(ctx);
  return { tokens: [token], kept: { path, made } };
}

/** Everything worth saying was said on stderr while it ran. */
