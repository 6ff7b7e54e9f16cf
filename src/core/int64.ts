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
 * An int64 typed as text (a flag, an argument, a CSV cell): its value, or what is wrong with it.
 * Digits and a range only, no dependency: commands check their id arguments at start-up with it.
 */
export function int64FromDecimalText(text: string): bigint | { problem: string } {
  const integer = integerFromDecimalText(text);
  if (integer === undefined) return { problem: `must be a base-10 integer, got ${JSON.stringify(text)}` };
  if (integer < INT64_MIN || integer > INT64_MAX)
    return { problem: `must be between ${INT64_MIN} and ${INT64_MAX}, got ${text}` };
  return integer;
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
