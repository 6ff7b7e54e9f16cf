import { isLosslessNumber, parse, splitNumber, stringify } from 'lossless-json';

/**
 * JSON in and out without losing digits. `JSON.parse` turns 9223372036854775807 into
 * 9223372036854775808; here every number stays as its text (a LosslessNumber) until a schema
 * decides what it may be, and bigints are written digit for digit.
 */
export function parseJson(text: string): unknown {
  return parse(text);
}

export function stringifyJson(value: unknown, indent?: number): string {
  const text = stringify(value, undefined, indent);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}

/** The source text of a number parsed by parseJson, or undefined for any other value. */
export function jsonNumberText(value: unknown): string | undefined {
  return isLosslessNumber(value) ? value.value : undefined;
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
