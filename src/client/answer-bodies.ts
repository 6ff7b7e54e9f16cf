// The bodies of the service's answers, read by the field rules: what PlantSchema and
// ErrorBodySchema decide (test/client/answer-bodies.test.ts holds each to its schema), without
// loading zod, which a remote create would load for these two alone.
import { INT32_MAX, INT32_MIN } from '../core/int64.js';
import { isJsonObject, isProblem, jsonInteger } from '../core/fields.js';
import type { ErrorBody, Plant } from '../core/schemas.js';

const readInt32 = jsonInteger(INT32_MIN, INT32_MAX);

/** A Plant (a 200's body), or undefined. Loose on purpose: only the contract's types are checked. */
export function plantBody(value: unknown): Plant | undefined {
  if (!isJsonObject(value) || typeof value.name !== 'string') return undefined;
  const { name, tag } = value;
  if (tag === undefined) return { name };
  return typeof tag === 'string' ? { name, tag } : undefined;
}

/** An Error (a 4xx's or 5xx's body), or undefined: its code an int32, as a number. */
export function errorBody(value: unknown): ErrorBody | undefined {
  if (!isJsonObject(value)) return undefined;
  const error = readInt32(value.error);
  if (isProblem(error) || typeof value.message !== 'string') return undefined;
  return { error: Number(error), message: value.message };
}
