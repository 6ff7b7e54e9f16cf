import { PlantsError } from '../../../core/errors.js';
import { thousands } from '../../../core/printable.js';
import { ioReason, isOutOfDescriptors } from '../../../fs/io-reason.js';
import type { ConnectionCap } from '../../../server/accept-outage.js';
import type { StoreLocation } from '../../../store/open-store.js';
import type { Context } from '../../context.js';

export const OPEN_FILES_HINT = 'raise the limit of open files (ulimit -n; LimitNOFILE= under systemd)';

/** Connections the admin listener keeps for probes and scrapers where descriptors are few. */
const ADMIN_CONNECTIONS = 4;

/** Descriptors node may open of its own accord: a module loaded on first use, a host looked up. */
const SLACK = 2;

/**
 * Descriptors a store opens as it works, beyond those it holds: a fold's new file, the journal it
 * reads and the directory it syncs, a lock; a database's pool, which opens its connections as
 * they are needed.
 */
function storeReserve(location: StoreLocation): number {
  return location.kind === 'postgres' ? (location.poolSize ?? 10) : 6;
}

export interface ConnectionCaps {
  service: ConnectionCap;
  /** The admin listener's, where it has one. */
  admin?: number;
}

/**
 * The most connections each listener takes, counted once both listen and the store is open. Each
 * connection is a descriptor, and one a process has none for is closed by libuv as it arrives,
 * unseen by node and by the log; one past a listener's cap node closes itself, and tells
 * (AcceptOutage). So where the limit of open files leaves less room than the default caps, the
 * caps are what it leaves, the store's and node's own set aside (the admin listener keeps a few,
 * so that /readyz can say why). Throws a usage error (exit 2) where it leaves none for the service:
 * such a server could only close every connection. Where the system does not tell its limit, the
 * default caps.
 */
export function connectionCaps(
  ctx: Context,
  location: StoreLocation,
  defaults: { service: number; admin?: number },
): ConnectionCaps {
  const unbound = {
    service: { connections: defaults.service },
    ...(defaults.admin === undefined ? {} : { admin: defaults.admin }),
  };
  const files = ctx.openFiles();
  if (files === undefined) return unbound;
  const reserve = storeReserve(location) + SLACK;
  const room = files.limit - files.open - reserve;
  if (room >= defaults.service + (defaults.admin ?? 0)) return unbound;
  const admin = defaults.admin === undefined ? undefined : Math.min(defaults.admin, ADMIN_CONNECTIONS);
  const service = Math.min(defaults.service, room - (admin ?? 0));
  if (service < 1) {
    const needs = files.limit - service + 1;
    throw new PlantsError(
      'usage',
      `the limit of open files (ulimit -n ${files.limit}) leaves no room for a connection: ${files.open} are ` +
        `open, and the store and node keep ${reserve} more` +
        `${admin === undefined ? '' : `, the admin listener ${admin}`}`,
      {
        hint: `${OPEN_FILES_HINT}: to ${thousands(needs)} or more`,
      },
    );
  }
  return { service: { connections: service, openFiles: files.limit }, ...(admin === undefined ? {} : { admin }) };
}

/**
 * A failure to start for want of descriptors (opening the store, a listener), as a usage error
 * (exit 2, as for an address it cannot listen on) that says what to do; undefined for any other.
 */
export function startRefusedForDescriptors(error: unknown, what: string): PlantsError | undefined {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (isOutOfDescriptors(cause))
      return new PlantsError('usage', `cannot ${what}: ${ioReason(cause)}`, { hint: OPEN_FILES_HINT, cause: error });
  }
  return undefined;
}
