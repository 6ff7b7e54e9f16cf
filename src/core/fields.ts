import { INT64_MAX, INT64_MIN, int64FromDecimalText } from './int64.js';
import { integerFromJsonNumberText, jsonNumberText } from './json.js';
import { thousands } from './printable.js';

/**
 * The rules of a plant's fields, as plain functions: each reads a value and returns it, or the
 * problem with it. The contract's shapes (schemas.ts) are made of them.
 */

/**
 * Limits of our own (the contract sets none); the README and openapi.json (`maxLength`) document
 * them. Characters are Unicode code points, as JSON Schema counts them (a lone surrogate is one).
 */
export const LIMITS = { textMaxCharacters: 1_000 } as const;

export interface Problem {
  problem: string;
}

export function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && 'problem' in value;
}

/** A value as a message shows it. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const text = jsonNumberText(value);
  if (text !== undefined) return text;
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}

/**
 * An integer in [min, max] from parsed JSON, exact: a JSON number (kept as text by parseJson), a
 * bigint, or a JS number that is a safe integer. `"1"` is a string, not an integer.
 */
export function jsonInteger(min: bigint, max: bigint): (value: unknown) => bigint | Problem {
  return (value) => {
    if (value === undefined) return { problem: 'is required' };
    let integer: bigint | undefined | 'too-large';
    const text = jsonNumberText(value);
    if (text !== undefined) integer = integerFromJsonNumberText(text);
    else if (typeof value === 'bigint') integer = value;
    else if (typeof value === 'number' && Number.isSafeInteger(value)) integer = BigInt(value);
    else if (typeof value !== 'number') return { problem: `must be an integer, got ${describe(value)}` };
    if (integer === undefined) return { problem: `must be an integer, got ${describe(value)}` };
    if (integer === 'too-large' || integer < min || integer > max)
      return { problem: `must be between ${min} and ${max}, got ${describe(value)}` };
    return integer;
  };
}

export const readInt64 = jsonInteger(INT64_MIN, INT64_MAX);

/** An int64 typed as text (a flag, a CSV cell): base-10 digits only. */
export function readDecimalInt64(value: unknown): bigint | Problem {
  if (value === undefined) return { problem: 'is required' };
  if (typeof value !== 'string') return { problem: `must be a base-10 integer, got ${describe(value)}` };
  return int64FromDecimalText(value);
}

/**
 * Whether a string is within the length limit. Any string the contract's schema accepts is a
 * name or tag: empty, control characters, lone surrogates, right-to-left marks, emoji. Keeping them
 * off a terminal is the job of whatever prints them (printable.ts), not of the store.
 */
export function withinLimit(text: string): boolean {
  // A string has at least as many UTF-16 units as characters: most are decided without counting.
  return text.length <= LIMITS.textMaxCharacters || characterCount(text) <= LIMITS.textMaxCharacters;
}

/** A string's characters: its code points, a surrogate pair one, a lone surrogate one. */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count -= 1;
        i += 1;
      }
    }
  }
  return count;
}

/** Whether a value is a name or a tag: the rule of readText, without its message. */
export function isValidText(value: unknown): value is string {
  return typeof value === 'string' && withinLimit(value);
}

export const TEXT_TOO_LONG = `must be at most ${thousands(LIMITS.textMaxCharacters)} characters`;

/** What is wrong with a name or a tag that is no string. */
export function notAString(value: unknown): string {
  return value === undefined ? 'is required' : `must be a string, got ${describe(value)}`;
}

/** A name or a tag. */
export function readText(value: unknown): string | Problem {
  if (typeof value !== 'string') return { problem: notAString(value) };
  return withinLimit(value) ? value : { problem: TEXT_TOO_LONG };
}

/** A JSON object. parseJson gives numbers as objects (LosslessNumber): "is an object" rules them out. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && jsonNumberText(value) === undefined;
}

export function notAnObject(value: unknown): string {
  return `must be a JSON object, got ${describe(value)}`;
}
