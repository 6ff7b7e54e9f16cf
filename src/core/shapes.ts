import type { Issue } from './errors.js';
import { isJsonObject, isProblem, notAnObject, type Problem } from './fields.js';

/**
 * The words the contract's shapes are written in (schemas.ts), and the one reader of them: a shape
 * is a JSON object's fields, each read by its field rule (fields.ts). Every reader of a body, a
 * store's line, an import's row or a service's answer reads it here, so that what a shape accepts,
 * and the problems it names, in their order, are decided in one place.
 */

/**
 * One field of a shape: the rule that reads its value (the value, or the problem with it), whether
 * it may be left out, and the JSON Schema type of the values the rule accepts (openapi.json
 * documents it): `string` where only strings pass, `integer` for an exact integer, `other`.
 */
export interface Field<T> {
  readonly read: (value: unknown) => T | Problem;
  readonly optional: boolean;
  readonly type: 'string' | 'integer' | 'other';
}

export type Shape = Readonly<Record<string, Field<unknown>>>;

/** A field that must be given (read as undefined when it is not: its rule says `is required`). */
export function field<T>(read: (value: unknown) => T | Problem, type: Field<T>['type']): Field<T> {
  return { read, optional: false, type };
}

/** The same field, which may be left out: undefined, it is not read, and the value has no such key. */
export function optional<T>(rule: Field<T>): Field<T> & { optional: true } {
  return { ...rule, optional: true };
}

type ValueOf<F> = F extends Field<infer T> ? T : never;
type Flat<T> = { [K in keyof T]: T[K] };

/** The value a shape reads: its fields as their rules read them, an optional one absent where it was not given. */
export type ShapeValue<S extends Shape> = Flat<
  { -readonly [K in keyof S as S[K] extends { optional: true } ? never : K]: ValueOf<S[K]> } & {
    -readonly [K in keyof S as S[K] extends { optional: true } ? K : never]?: ValueOf<S[K]>;
  }
>;

export type Checked<T> = { value: T; issues?: undefined } | { issues: Issue[]; value?: undefined };

/**
 * `input` read as `shape`: a JSON object (else one problem, at `body`), each field read by its
 * rule, in the shape's order; every problem is named, each with its field. Fields the shape does
 * not name are dropped.
 */
export function checkShape<S extends Shape>(shape: S, input: unknown): Checked<ShapeValue<S>> {
  if (!isJsonObject(input)) return { issues: [{ path: 'body', message: notAnObject(input) }] };
  const value: Record<string, unknown> = {};
  let issues: Issue[] | undefined;
  for (const key in shape) {
    const rule = shape[key] as Field<unknown>;
    const given = input[key];
    if (given === undefined && rule.optional) continue;
    const read = rule.read(given);
    if (isProblem(read)) (issues ??= []).push({ path: key, message: read.problem });
    else value[key] = read;
  }
  return issues === undefined ? { value: value as ShapeValue<S> } : { issues };
}
