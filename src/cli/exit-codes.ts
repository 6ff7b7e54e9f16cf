import type { ErrorCode } from '../core/errors.js';

/** The exit codes, stable for scripts; the README and `plants --help` list them (exit-code-meanings.ts says what each means). */
export const EXIT = {
  ok: 0,
  refused: 1,
  usage: 2,
  auth: 3,
  unavailable: 4,
  internal: 70,
} as const;

/**
 * The exit code of each kind of failure. A Record over every code, so that a new code does not
 * compile until it has its exit code here.
 */
const EXIT_CODE_OF: Record<ErrorCode, number> = {
  duplicate_id: EXIT.refused,
  refused: EXIT.refused,
  not_found: EXIT.refused,
  precondition_failed: EXIT.refused,
  usage: EXIT.usage,
  invalid_plant: EXIT.usage,
  unreadable_input: EXIT.usage,
  malformed_json: EXIT.usage,
  unsupported_media_type: EXIT.usage,
  payload_too_large: EXIT.usage,
  bad_request: EXIT.usage,
  invalid_parameter: EXIT.usage,
  method_not_allowed: EXIT.usage,
  headers_too_large: EXIT.usage,
  http_version_not_supported: EXIT.usage,
  not_logged_in: EXIT.auth,
  auth_refused: EXIT.auth,
  unauthorized: EXIT.auth,
  unreachable: EXIT.unavailable,
  timeout: EXIT.unavailable,
  bad_response: EXIT.unavailable,
  store_corrupt: EXIT.unavailable,
  store_locked: EXIT.unavailable,
  store_io: EXIT.unavailable,
  config_io: EXIT.unavailable,
  unavailable: EXIT.unavailable,
  request_timeout: EXIT.unavailable,
  outcome_unknown: EXIT.unavailable,
  local_limit: EXIT.unavailable,
  internal: EXIT.internal,
  // A row's failure only: a command that was interrupted exits as exitCodeForSignal says.
  interrupted: exitCodeForSignal('SIGINT'),
};

export function exitCodeFor(code: ErrorCode): number {
  return EXIT_CODE_OF[code];
}

/** A command that stops on SIGINT or SIGTERM exits as a shell reports a process the signal killed. */
export function exitCodeForSignal(signal: string): number {
  return 128 + (signal === 'SIGINT' ? 2 : 15);
}
