import { splitNumber } from 'lossless-json';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const INT32_MIN = -(2n ** 31n);
export const INT32_MAX = 2n ** 31n - 1n;

/** Base-10 integers only, as typed on a command line: no `0x`, no fraction, no exponent, no blanks. */
const DECIMAL_INTEGER = /^[+-]?[0-9]+$/;

/** The exact value of a base-10 integer string, or undefined if it is not one. */
export function integerFromDecimalText(text: string): bigint | undefined {
  return DECIMAL_INTEGER.test(text) ? BigInt(text) : undefined;
}

/**
 * The exact value of a JSON number's text when it is an integer in JSON Schema's sense (`1.0` and
 * `1e2` are integers, `1.5` is not), or undefined. Never goes through a float, so no digit is lost.
 * Exponents beyond `maxDigits` are not expanded: such a value is out of any range we accept.
 */
export function integerFromJsonNumberText(text: string, maxDigits = 40): bigint | undefined | 'too-large' {
  const { sign, digits, exponent } = splitNumber(text);
  if (digits === '0') return 0n;
  const zerosToAppend = exponent - (digits.length - 1);
  if (zerosToAppend < 0) return undefined;
  if (digits.length + zerosToAppend > maxDigits) return 'too-large';
  const magnitude = BigInt(digits) * 10n ** BigInt(zerosToAppend);
  return sign === '-' ? -magnitude : magnitude;
}

/** The form of an int64 in a URL: base-10 digits, a minus sign for negatives, no plus, no leading zero. */
const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]{0,18})$/;

/**
 * The int64 a text names in canonical form (`9223372036854775807`, `-1`, `0`), or undefined: for
 * ids in paths and queries, where one text must name one plant (`01`, `+1`, `1e0`, `0x1` do not).
 */
export function int64FromCanonicalText(text: string): bigint | undefined {
  if (!CANONICAL_INTEGER.test(text)) return undefined;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}
