import { isLosslessNumber, parse, stringify } from 'lossless-json';

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
