import type { ErrorCode } from '../core/errors.js';

/** The exit codes, stable for scripts; the README and `plants --help` list them. */
export const EXIT = {
  ok: 0,
  refused: 1,
  usage: 2,
  auth: 3,
  unavailable: 4,
  internal: 70,
} as const;

export function exitCodeFor(code: ErrorCode): number {
  switch (code) {
    case 'duplicate_id':
    case 'refused':
      return EXIT.refused;
    case 'usage':
    case 'invalid_plant':
    case 'unreadable_input':
      return EXIT.usage;
    case 'not_logged_in':
    case 'auth_refused':
    case 'unauthorized':
      return EXIT.auth;
    case 'unreachable':
    case 'timeout':
    case 'bad_response':
    case 'store_corrupt':
    case 'store_locked':
    case 'store_io':
      return EXIT.unavailable;
    default:
      return EXIT.internal;
  }
}

/** A command that stops on SIGINT or SIGTERM exits as a shell reports a process the signal killed. */
export function exitCodeForSignal(signal: string): number {
  return 128 + (signal === 'SIGINT' ? 2 : 15);
}

export const EXIT_CODES_HELP = `Exit codes:
  0  done (the plant was created)
  1  refused by the store: a 400 Error from the service, or a duplicate id in the local store
  2  usage error or invalid input, found before anything was sent
  3  authentication missing or refused (run plants login)
  4  the store could not be used: service unreachable, timed out or outside the contract,
     or the local store file unreadable, not a plants store, or locked
 70  internal error (a bug: please report it)
130  plants import interrupted by Ctrl-C (143: SIGTERM), after its summary`;
