import { bool, text, usageError, type CommandSpec } from '../../command-spec.js';
import { portOf, shutdownDelayOf } from './admin-flags.js';
import { isDatabaseUrl } from './database-url.js';
import type { ServeOptions } from './types.js';

export const command: CommandSpec<ServeOptions> = {
  name: 'serve',
  summary: 'run the Plant Store service (POST /plants, and the GET and DELETE extensions) on a JSON file or PostgreSQL',
  flags: [
    { flags: '--host <host>', description: 'address to listen on (default: "127.0.0.1")' },
    { flags: '--port <port>', description: 'port to listen on, 0 for any free port (default: "8080")' },
    { flags: '--store <path>', description: 'the store file (default: $PLANTS_STORE, config, or the data directory)', completes: 'file' },
    { flags: '--database <url>', description: 'a postgresql:// URL: keep plants in PostgreSQL, shared by any number of instances (default: $PLANTS_DATABASE_URL)' },
    { flags: '--pool <n>', description: 'connections to PostgreSQL at most (default: "10")' },
    { flags: '--token <token>', description: 'a bearer token to accept (repeatable; default: $PLANTS_SERVER_TOKENS, or the one it keeps in the data directory)', repeatable: true },
    { flags: '--quiet', description: 'no log line per request' },
    { flags: '--log-format <format>', description: 'text (the default) or json: one JSON object a line on stderr', completes: ['text', 'json'] },
    { flags: '--admin-port <port>', description: 'serve /livez, /readyz, /metrics and /openapi.json on this port, without a token (default: $PLANTS_ADMIN_PORT; off when unset)' },
    { flags: '--admin-host <host>', description: 'address of the admin port (default: $PLANTS_ADMIN_HOST, else "127.0.0.1")' },
    { flags: '--shutdown-delay <seconds>', description: 'on SIGTERM or SIGINT, answer /readyz 503 at once but keep serving this long before stopping (default: "0")' },
  ],
  help:
    '\nThe first line on stdout is the base URL, e.g. http://127.0.0.1:8080, also with --port 0.\n' +
    'SIGINT or SIGTERM: /readyz answers 503; after --shutdown-delay, stop accepting, finish the requests in flight\n' +
    '(each 200 is on disk already), exit 0. Every answer carries an X-Request-Id, also in its log line.\n\n' +
    'With --database (or PLANTS_DATABASE_URL), put the password in PGPASSWORD or ~/.pgpass rather than in the URL:\n' +
    'a URL on the command line is visible to other users of the machine.\n\n' +
    'Examples:\n  plants serve\n  PLANTS_SERVER_TOKENS=T1,T2 plants serve --port 9000 --store ./plants.json\n' +
    '  plants serve --database postgresql://plants@db.example.com/plants --pool 20',
  options: (input) => {
    const portText = text(input, 'port') ?? '8080';
    if (!/^\d+$/.test(portText) || Number(portText) > 65535) throw usageError('serve', `--port must be a number from 0 to 65535, got ${JSON.stringify(portText)}`);
    const store = text(input, 'store');
    const database = text(input, 'database');
    if (database !== undefined && !isDatabaseUrl(database)) throw usageError('serve', '--database must be a postgresql:// (or postgres://) URL');
    if (database !== undefined && store !== undefined) throw usageError('serve', '--store and --database name two stores: give one');
    const poolText = text(input, 'pool') ?? '10';
    if (!/^\d+$/.test(poolText) || Number(poolText) < 1 || Number(poolText) > 1000) throw usageError('serve', `--pool must be a number from 1 to 1000, got ${JSON.stringify(poolText)}`);
    const tokens = input.flags.token;
    const logFormat = text(input, 'logFormat') ?? 'text';
    if (logFormat !== 'text' && logFormat !== 'json') throw usageError('serve', `--log-format must be text or json, got ${JSON.stringify(logFormat)}`);
    const adminPortText = text(input, 'adminPort');
    const adminPort = adminPortText === undefined ? undefined : portOf(adminPortText, '--admin-port');
    if (adminPort instanceof Error) throw adminPort;
    const adminHost = text(input, 'adminHost');
    const shutdownDelaySeconds = shutdownDelayOf(text(input, 'shutdownDelay') ?? '0');
    if (shutdownDelaySeconds instanceof Error) throw shutdownDelaySeconds;
    return {
      host: text(input, 'host') ?? '127.0.0.1',
      port: Number(portText),
      ...(store === undefined ? {} : { store }),
      ...(database === undefined ? {} : { database }),
      pool: Number(poolText),
      tokens: Array.isArray(tokens) ? tokens : [],
      quiet: bool(input, 'quiet'),
      logFormat,
      ...(adminPort === undefined ? {} : { adminPort }),
      ...(adminHost === undefined ? {} : { adminHost }),
      shutdownDelaySeconds,
    };
  },
  load: () => import('./run.js'),
};
