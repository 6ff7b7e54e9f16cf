import type { ErrorCode } from '../core/errors.js';

/**
 * The exit codes, stable for scripts; the README and `plants --help` list them (exit-code-meanings.ts says what each
 * means).
 */
export const EXIT = {
  ok: 0,
  refused: 1,
  usage: 2,
  auth: 3,
  unavailable: 4,
  internal: 70,
} as const;

/**
 * The signals a command stops on gracefully (Context.onStopSignal), each with the exit code it
 * then ends with: 128 and the signal's number, as a shell reports a process the signal killed.
 * SIGHUP is a terminal closed or an ssh session dropped: it gets what SIGTERM gets.
 */
export const STOP_SIGNALS = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

export type StopSignal = keyof typeof STOP_SIGNALS;

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
  // As gh exits for a question not answered yes: nothing was done, as for a usage error.
  cancelled: EXIT.usage,
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
  output_io: EXIT.unavailable,
  local_limit: EXIT.unavailable,
  internal: EXIT.internal,
  // A row's failure only: a command that was interrupted exits as exitCodeForSignal says.
  interrupted: STOP_SIGNALS.SIGINT,
};

export function exitCodeFor(code: ErrorCode): number {
  return EXIT_CODE_OF[code];
}

export function exitCodeForSignal(signal: StopSignal): number {
  return STOP_SIGNALS[signal];
}
