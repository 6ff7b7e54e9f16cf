import { PlantsError } from '../core/errors.js';
import { parseJson } from '../core/json.js';
import { canonicalPage } from '../core/plant-json.js';
import { printable } from '../core/printable.js';
import { checkNewPlant } from '../core/new-plant.js';
import { ErrorBodySchema, PlantSchema, type ErrorBody, type NewPlant, type Plant } from '../core/schemas.js';
import type { DeleteOutcome, PatchOutcome, PutOutcome } from '../core/store.js';
import type { RawAnswer } from './transport.js';
import { isRetryableStatus } from './retry.js';

const LOGIN_HINT =
  'log in to this service again with plants login (or set PLANTS_TOKEN); plants auth status checks the saved tokens';

/**
 * What the service's answer to POST /plants means: the Plant of a 200, or a PlantsError for every
 * other answer (`refused` for a contract 400, `auth_refused`, or `bad_response` for anything
 * outside the contract, quoting the status and a short excerpt of the body).
 */
export function readCreateAnswer(answer: RawAnswer): Plant {
  if (answer.status === 200) {
    // A Plant holds strings only: the native parser reads it exactly, and an import reads thousands.
    const plant = plantBody(tryParse(answer.text, JSON.parse));
    if (plant !== undefined) return plant;
    throw outsideContract(answer.status, answer.text, 'the body is not a Plant');
  }
  throw failureOf(answer, 'the plant', 'created', { unknown: 'the plant may or may not have been created' });
}

/** GET /plants/{id}: the plant of a 200 (its id exact: read losslessly), undefined for a 404. */
export function readPlantAnswer(answer: RawAnswer, id: bigint): NewPlant | undefined {
  if (answer.status === 404 && isError(answer.text)) return undefined;
  if (answer.status !== 200) throw failureOf(answer, 'the request', 'read', { extension: 'GET /plants/{id}' });
  const plant = plantOf(tryParse(answer.text, parseJson));
  if (plant === undefined || plant.id !== id)
    throw outsideContract(answer.status, answer.text, `the body is not the plant ${id}`);
  return plant;
}

/** GET /plants: the page of a 200, every plant's id exact. */
export function readPageAnswer(answer: RawAnswer): NewPlant[] {
  if (answer.status !== 200) throw failureOf(answer, 'the request', 'read', { extension: 'GET /plants' });
  // As plants serve writes a page: read without a parser's tree or a schema a plant.
  const canonical = canonicalPage(answer.text);
  if (canonical !== undefined) return canonical;
  const page = tryParse(answer.text, parseJson);
  if (!Array.isArray(page)) throw outsideContract(answer.status, answer.text, 'the body is not an array of plants');
  return page.map((entry: unknown) => {
    const plant = plantOf(entry);
    if (plant === undefined) throw outsideContract(answer.status, answer.text, 'the body is not an array of plants');
    return plant;
  });
}

/** GET /plants/count: the count of a 200, `{"count": N}`, N a whole number from 0 (the most a double holds exactly). */
export function readCountAnswer(answer: RawAnswer): number {
  if (answer.status !== 200) throw failureOf(answer, 'the request', 'read', { extension: 'GET /plants/count' });
  const body = tryParse(answer.text, JSON.parse) as { count?: unknown } | undefined;
  const count = typeof body === 'object' && body !== null ? body.count : undefined;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) {
    throw outsideContract(answer.status, answer.text, 'the body is not {"count": N}, N a whole number from 0');
  }
  return count;
}

/** PUT /plants/{id}: created for a 201; updated, or unchanged as Plants-Outcome says, for a 200; mismatch for a 412. */
export function readPutAnswer(answer: RawAnswer): PutOutcome {
  if (answer.status === 201 || answer.status === 200) {
    if (plantBody(tryParse(answer.text, JSON.parse)) === undefined)
      throw outsideContract(answer.status, answer.text, 'the body is not a Plant');
    return answer.status === 201 ? 'created' : answer.outcome === 'unchanged' ? 'unchanged' : 'updated';
  }
  if (answer.status === 412 && isError(answer.text)) return 'mismatch';
  throw failureOf(answer, 'the plant', 'changed', {
    extension: 'PUT /plants/{id}',
    unknown: 'the plant may or may not have been changed',
  });
}

/**
 * PATCH /plants/{id}: the plant as it now is for a 200 (unchanged as Plants-Outcome says), absent for a 404, mismatch
 * for a 412.
 */
export function readPatchAnswer(answer: RawAnswer, id: bigint): PatchOutcome {
  if (answer.status === 200) {
    const plant = plantBody(tryParse(answer.text, JSON.parse));
    if (plant === undefined) throw outsideContract(answer.status, answer.text, 'the body is not a Plant');
    const { name, tag } = plant;
    return { plant: tag === undefined ? { id, name } : { id, name, tag }, changed: answer.outcome !== 'unchanged' };
  }
  if (answer.status === 404 && isError(answer.text)) return 'absent';
  if (answer.status === 412 && isError(answer.text)) return 'mismatch';
  throw failureOf(answer, 'the change', 'made', {
    extension: 'PATCH /plants/{id}',
    unknown: 'the plant may or may not have been changed',
  });
}

/** DELETE /plants/{id}: deleted for a 204, absent for a 404, mismatch for a 412 (If-Match). */
export function readDeleteAnswer(answer: RawAnswer): DeleteOutcome {
  if (answer.status === 204) return 'deleted';
  if (answer.status === 404 && isError(answer.text)) return 'absent';
  if (answer.status === 412 && isError(answer.text)) return 'mismatch';
  throw failureOf(answer, 'the deletion', 'done', {
    extension: 'DELETE /plants/{id}',
    unknown: 'the plant may or may not have been deleted',
  });
}

/** POST /plants of `{}`: a 400 Error is the body refused past the token; 401 or 403, the token refused. */
export function readTokenCheckAnswer(answer: RawAnswer): 'accepted' | 'refused' {
  if (answer.status === 400 && isError(answer.text)) return 'accepted';
  if (answer.status === 401 || answer.status === 403) return 'refused';
  if (answer.status === 200)
    throw outsideContract(answer.status, answer.text, 'a plant with no id or name was accepted');
  throw failureOf(answer, 'the check', 'done');
}

/**
 * The failure an answer other than the expected one means, for a request about `what`, which was
 * not `done` when the service says so. `extension` names an operation beyond the contract: a
 * service that has only the contract's POST answers it 404 or 405. `unknown` says, for a request
 * that changes the store, what may have happened where the answer does not tell.
 */
function failureOf(
  answer: RawAnswer,
  what: string,
  done: string,
  kinds: { extension?: string; unknown?: string } = {},
): PlantsError {
  const failure = failureOfStatus(answer, what, done, kinds);
  if (answer.status < 500 || answer.requestId === undefined) return failure;
  // The service's own failure: its id lets whoever runs it find the request in its log.
  const { code, error, hint, effect, issues } = failure;
  return new PlantsError(code, `${failure.message} (request id ${printable(answer.requestId, 128)})`, {
    error,
    effect,
    issues,
    ...(hint === undefined ? {} : { hint }),
  });
}

function failureOfStatus(
  answer: RawAnswer,
  what: string,
  done: string,
  { extension, unknown }: { extension?: string; unknown?: string } = {},
): PlantsError {
  const { status, text } = answer;
  const error = errorBody(tryParse(text, parseJson));
  const detail = error !== undefined ? `: ${printable(error.message)}` : '';
  if (isRetryableStatus(status)) {
    // Not processed, by what these statuses mean (and plants serve answers 503 only so).
    return new PlantsError('unreachable', `the service is unavailable (HTTP ${status})${detail}; nothing was ${done}`);
  }
  if (status === 401 || status === 403) {
    return new PlantsError('auth_refused', `the service refused the token (HTTP ${status})${detail}`, {
      hint: LOGIN_HINT,
    });
  }
  if (status === 400) {
    if (error === undefined) return outsideContract(status, text, 'the body is not an Error');
    return new PlantsError(
      'refused',
      `the service refused ${what}: ${printable(error.message)} (error ${error.error})`,
      { error: error.error },
    );
  }
  if (extension !== undefined && (status === 404 || status === 405)) {
    return new PlantsError('bad_response', `the service has no ${extension} (HTTP ${status})${detail}`, {
      hint: 'the contract specifies only POST /plants; plants serve has the extensions',
    });
  }
  if (status >= 300 && status < 400 && answer.location !== undefined) {
    // A request answered with a redirect was processed, or not, as the service chose.
    const effect = unknown === undefined ? '' : `: ${unknown}`;
    return new PlantsError(
      'bad_response',
      `the service answered HTTP ${status}, a redirect to ${printable(answer.location, 200)}, which plants ` +
        `does not follow${effect}`,
      {
        hint: 'if the service has moved, point --base-url (or plants config set base-url) at its new address',
        effect: 'unknown',
      },
    );
  }
  return outsideContract(status, text);
}

function isError(text: string): boolean {
  return errorBody(tryParse(text, parseJson)) !== undefined;
}

function plantOf(entry: unknown): NewPlant | undefined {
  return checkNewPlant(entry).plant;
}

function tryParse(body: string, parse: (text: string) => unknown): unknown {
  try {
    return parse(body);
  } catch {
    return undefined;
  }
}

/** An answer the contract does not describe: whatever the service did with the request is not known. */
function outsideContract(status: number, body: string, why?: string): PlantsError {
  const excerpt = body.trim() === '' ? 'an empty body' : `“${printable(body.trim(), 120)}”`;
  return new PlantsError(
    'bad_response',
    `the service answered HTTP ${status}${why ? ` (${why})` : ''} with ${excerpt}`,
    { effect: 'unknown' },
  );
}

/** A Plant (a 200's body), or undefined. */
function plantBody(value: unknown): Plant | undefined {
  const plant = PlantSchema.safeParse(value);
  return plant.success ? plant.data : undefined;
}

/** An Error (a 4xx's or 5xx's body), or undefined. */
function errorBody(value: unknown): ErrorBody | undefined {
  const error = ErrorBodySchema.safeParse(value);
  return error.success ? error.data : undefined;
}
