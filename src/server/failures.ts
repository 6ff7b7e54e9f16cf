import { ERROR_NUMBERS, isPlantsError, type ErrorCode } from '../core/errors.js';

/**
 * An answer other than 200: the HTTP status, the catalogue number that goes into the Error body,
 * a message for the client, and any headers the status calls for (`Allow`, `WWW-Authenticate`).
 */
export interface Failure {
  status: number;
  /** The `error` number of the body, from ERROR_NUMBERS. */
  error: number;
  message: string;
  headers?: Readonly<Record<string, string>>;
}

/** Thrown inside the request pipeline to answer with a Failure; anything else thrown is unexpected. */
export class RequestRejected extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
    this.name = 'RequestRejected';
  }
}

export function failure(status: number, code: ErrorCode, message: string, headers?: Record<string, string>): Failure {
  const error = ERROR_NUMBERS[code];
  return headers === undefined ? { status, error, message } : { status, error, message, headers };
}

/** The RequestRejected to throw for a Failure of these parts. */
export function rejection(
  status: number,
  code: ErrorCode,
  message: string,
  headers?: Record<string, string>,
): RequestRejected {
  return new RequestRejected(failure(status, code, message, headers));
}

/** The Error body the contract defines: `{ error: int32, message: string }`. */
export function errorBody(answer: Failure): { error: number; message: string } {
  return { error: answer.error, message: answer.message };
}

// The store's own messages name files on the server's disk: they go to the log, not to clients.
// 503 promises that nothing was stored: clients may send the plant again (plants import does).
const STORE_UNAVAILABLE = failure(503, 'unavailable', 'the plant store is unavailable right now; try again later', {
  'retry-after': '1',
});

// A failure part way (a store written but not made durable) or a bug: whether the plant was stored
// is not known, so not a 503, which would let a client send it again as if nothing had happened.
const OUTCOME_UNKNOWN = failure(500, 'outcome_unknown', 'internal error: the plant may or may not have been stored');

/**
 * The answer for anything the pipeline threw. `expected` is false for failures that are the
 * server's fault (bugs, store trouble): those are logged with their cause.
 */
export function failureFor(error: unknown): { failure: Failure; expected: boolean } {
  if (error instanceof RequestRejected) return { failure: error.failure, expected: true };
  if (isPlantsError(error)) {
    switch (error.code) {
      case 'invalid_plant':
      case 'duplicate_id':
        // The create logic's own message, the same text `--local` prints.
        return { failure: { status: 400, error: error.error, message: error.message }, expected: true };
      case 'not_found':
        // The read and delete logic's: no plant with the id.
        return { failure: { status: 404, error: error.error, message: error.message }, expected: true };
      case 'precondition_failed':
        // The change logic's: the plant is not in the state If-Match or If-None-Match names.
        return { failure: { status: 412, error: error.error, message: error.message }, expected: true };
      case 'store_io':
      case 'store_locked':
      case 'store_corrupt':
        return { failure: error.effect === 'unknown' ? OUTCOME_UNKNOWN : STORE_UNAVAILABLE, expected: false };
      default:
        break;
    }
  }
  return { failure: OUTCOME_UNKNOWN, expected: false };
}
