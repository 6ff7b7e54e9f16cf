import { declareCommand, defined, usageError } from '../../command-spec.js';
import { portOf, shutdownDelayOf } from './admin-flags.js';
import type { ServeOptions } from './run.js';

export const command = declareCommand({
  name: 'serve',
  summary:
    'run the Plant Store service (POST /plants; GET, PUT, PATCH and DELETE as extensions) on a JSON file or PostgreSQL',
  description:
    'The first line on stdout is the base URL, e.g. http://127.0.0.1:8080, also with --port 0. SIGINT, SIGTERM ' +
    'or SIGHUP: /readyz answers 503; after --shutdown-delay, stop accepting, finish the requests in flight ' +
    '(each 200 is on disk already), exit 0. Every answer carries an X-Request-Id, also in its log line.\n\n' +
    'With --database (or PLANTS_DATABASE_URL), put the password in PGPASSWORD or ~/.pgpass rather than in the ' +
    'URL: a URL on the command line is visible to other users of the machine.',
  flags: {
    host: { kind: 'string', value: '<host>', description: 'address to listen on', default: '127.0.0.1' },
    port: {
      kind: 'string',
      value: '<port>',
      description: 'port to listen on, from 0 to 65535; 0 for any free port',
      default: '8080',
    },
    store: {
      kind: 'string',
      value: '<path>',
      description: 'the store file',
      defaultFrom: '$PLANTS_STORE, config, or the data directory',
      completes: 'file',
    },
    database: {
      kind: 'string',
      value: '<url>',
      description: 'a postgresql:// URL: keep plants in PostgreSQL, shared by any number of instances',
      defaultFrom: '$PLANTS_DATABASE_URL',
    },
    pool: {
      kind: 'string',
      value: '<n>',
      description: 'connections to PostgreSQL at most, from 1 to 1000',
      default: '10',
    },
    storeWait: {
      kind: 'string',
      value: '<seconds>',
      description:
        'the most a request waits on the store (a database lock, another process holding the store file), from ' +
        '0.001 to 3600; past it, 503',
      defaultFrom: '$PLANTS_STORE_WAIT, or 10',
    },
    token: {
      kind: 'strings',
      value: '<token>',
      description: 'a bearer token to accept',
      defaultFrom: '$PLANTS_SERVER_TOKENS, or the one it keeps in the data directory',
    },
    quiet: { kind: 'boolean', description: 'no log line per request' },
    logFormat: {
      kind: 'string',
      value: '<format>',
      description: 'text or json: one JSON object a line on stderr',
      default: 'text',
      choices: ['text', 'json'],
    },
    adminPort: {
      kind: 'string',
      value: '<port>',
      description: 'serve /livez, /readyz, /metrics and /openapi.json on this port, without a token; off when unset',
      defaultFrom: '$PLANTS_ADMIN_PORT',
    },
    adminHost: {
      kind: 'string',
      value: '<host>',
      description: 'address of the admin port',
      defaultFrom: '$PLANTS_ADMIN_HOST, else 127.0.0.1',
    },
    shutdownDelay: {
      kind: 'string',
      value: '<seconds>',
      description:
        'on SIGTERM, SIGINT or SIGHUP, answer /readyz 503 at once but keep serving this long before stopping',
      default: '0',
    },
  },
  examples: [
    'plants serve',
    'PLANTS_SERVER_TOKENS=T1,T2 plants serve --port 9000 --store ./plants.json',
    'plants serve --database postgresql://plants@db.example.com/plants --pool 20',
    'plants serve --admin-port 9090 --log-format json --shutdown-delay 5',
  ],
  exitCodes: {
    ok: 'stopped by SIGINT, SIGTERM or SIGHUP, every request in flight finished',
    usage: 'a usage error, or an address it cannot listen on, or a limit of open files (ulimit -n) too low to serve',
    unavailable:
      'the store could not be used: unreadable, not a plants store, or a database that does not answer or ' +
      'whose plants table is not ours',
  },
  options: ({ flags }): ServeOptions => {
    const {
      host,
      port,
      store,
      database,
      pool,
      token: tokens,
      quiet,
      storeWait,
      logFormat,
      adminPort: adminPortText,
      adminHost,
      shutdownDelay,
    } = flags;
    if (!/^\d+$/.test(port) || Number(port) > 65535)
      throw usageError('serve', `--port must be a number from 0 to 65535, got ${JSON.stringify(port)}`);
    if (database !== undefined && store !== undefined)
      throw usageError('serve', '--store and --database name two stores: give one');
    if (!/^\d+$/.test(pool) || Number(pool) < 1 || Number(pool) > 1000)
      throw usageError('serve', `--pool must be a number from 1 to 1000, got ${JSON.stringify(pool)}`);
    const adminPort = adminPortText === undefined ? undefined : portOf(adminPortText, '--admin-port');
    if (adminPort instanceof Error) throw adminPort;
    const shutdownDelaySeconds = shutdownDelayOf(shutdownDelay);
    if (shutdownDelaySeconds instanceof Error) throw shutdownDelaySeconds;
    return {
      host,
      port: Number(port),
      ...defined({ store, database, storeWait, adminPort, adminHost }),
      pool: Number(pool),
      tokens,
      quiet,
      logFormat,
      shutdownDelaySeconds,
    };
  },
  load: () => import('./run.js'),
});
