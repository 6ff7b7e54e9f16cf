/**
 * One regular expression written as several, each a whole pattern of its own, so that a long one fits in a line: their
 * sources in turn, with the flags of the last.
 */
export function pattern(...parts: readonly [RegExp, ...RegExp[]]): RegExp {
  return new RegExp(parts.map((part) => part.source).join(''), parts[parts.length - 1]?.flags);
}
