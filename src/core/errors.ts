/**
 * The stable catalogue of failures. Each kind has a string `code` and a numeric `error`: the number
 * travels in the service's Error bodies and in `--json` failure documents, so a number once
 * published is never reused or renumbered. The README documents this table.
 */
export const ERROR_NUMBERS = {
  // Failures of the create operation itself: the same in the local store and the server.
  invalid_plant: 1001,
  duplicate_id: 1002,
  malformed_json: 1003,
  unsupported_media_type: 1004,
  payload_too_large: 1005,
  unauthorized: 1006,
  not_found: 1007,
  method_not_allowed: 1008,
  unavailable: 1009,
  bad_request: 1010,
  request_timeout: 1011,
  headers_too_large: 1012,
  outcome_unknown: 1013,
  invalid_parameter: 1014,
  precondition_failed: 1015,
  http_version_not_supported: 1016,
  // Failures the CLI finds on its side of the wire.
  usage: 2001,
  not_logged_in: 2002,
  auth_refused: 2003,
  unreachable: 2004,
  timeout: 2005,
  bad_response: 2006,
  refused: 2007,
  store_corrupt: 2008,
  store_locked: 2009,
  store_io: 2010,
  unreadable_input: 2011,
  // 2012 (not_sent) is retired: it was documented but never reported (a row not sent is a count).
  config_io: 2013,
  interrupted: 2014,
  output_io: 2015,
  local_limit: 2016,
  cancelled: 2017,
  internal: 2099,
} as const;

export type ErrorCode = keyof typeof ERROR_NUMBERS;

/** One problem with one field of an input: `path` names the field (`id`, `name`, … or `body`). */
export interface Issue {
  path: string;
  message: string;
}

/**
 * Whether an operation that failed may nonetheless have taken effect: `none`, it certainly did not
 * (nothing was written, or the request never reached the service: it may be sent again as if new);
 * `unknown`, it may have (a store file renamed into place but not made durable, a request sent
 * whose answer never came), so it must not be reported as not done, nor simply sent again.
 */
export type Effect = 'none' | 'unknown';

export interface PlantsErrorOptions {
  issues?: readonly Issue[];
  /** The number to report instead of the catalogue's, e.g. the `error` a server sent. */
  error?: number;
  /** A line of advice for people (`run plants login`), shown after the message. */
  hint?: string;
  cause?: unknown;
  /** Default `none`. */
  effect?: Effect;
}

/** Every failure this project reports on purpose. Anything else reaching the top is a bug. */
export class PlantsError extends Error {
  override readonly name = 'PlantsError';
  readonly code: ErrorCode;
  readonly error: number;
  readonly issues: readonly Issue[];
  readonly hint: string | undefined;
  readonly effect: Effect;

  constructor(code: ErrorCode, message: string, options: PlantsErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.error = options.error ?? ERROR_NUMBERS[code];
    this.issues = options.issues ?? [];
    this.hint = options.hint;
    this.effect = options.effect ?? 'none';
  }
}

export function isPlantsError(value: unknown): value is PlantsError {
  return value instanceof PlantsError;
}
