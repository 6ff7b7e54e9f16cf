/**
 * Characters that must not reach a terminal or a log line raw: C0 and C1 controls and DEL (they
 * move the cursor, change colours, ring bells, split lines), the line and paragraph separators,
 * the bidirectional controls (they reorder what is shown: "Trojan Source"), and lone surrogates
 * (which would be written as U+FFFD, hiding what the text holds).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text from outside (a plant's name, a server's message, a file's contents) made safe to print on
 * one terminal line: every unprintable character shown as an escape (`\n`, `\t`, `\u001b`), so
 * that it cannot move the cursor, change colours or forge a line of output. What is stored and
 * what `--json` prints is the text itself; this is for people only. Longer than `maxLength`, it is
 * cut there, with an ellipsis.
 */
export function printable(text: string, maxLength = 200): string {
  const escaped = text.replace(UNPRINTABLE, (char) =>
    char === '\n' ? '\\n' : char === '\t' ? '\\t' : char === '\r' ? '\\r' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (escaped.length <= maxLength) return escaped;
  // Not between the two halves of a surrogate pair.
  const cut = /[\ud800-\udbff]/.test(escaped.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
  return `${escaped.slice(0, cut)}…`;
}

/** 1234567 as "1,234,567". (toLocaleString loads ICU's locale data: ~10 ms at the end of every import.) */
export function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}
