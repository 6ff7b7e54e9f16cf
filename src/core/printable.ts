/**
 * Characters that must not reach a terminal or a log line raw: C0 and C1 controls and DEL (they
 * move the cursor, change colours, ring bells, split lines), the line and paragraph separators,
 * the bidirectional controls (they reorder what is shown: "Trojan Source"), and lone surrogates
 * (which would be written as U+FFFD, hiding what the text holds); and the backslash, which starts
 * every escape, so that each printed form stands for one text only.
 */
const UNPRINTABLE = new RegExp(
  [
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\\\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/.source,
    // A lone surrogate: a high one with no low one after it, a low one with no high one before it.
    /[\ud800-\udbff](?![\udc00-\udfff])/.source,
    /(?<![\ud800-\udbff])[\udc00-\udfff]/.source,
  ].join('|'),
  'g',
);

/**
 * The short escapes; a backslash is one too, so that a name holding `\n` (two characters) never looks like one holding
 * a line break.
 */
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/**
 * Text from outside (a plant's name, a server's message, a file's contents) made safe to print on
 * one terminal line: every unprintable character shown as an escape (`\n`, `\t`, `\u001b`), so
 * that it cannot move the cursor, change colours or forge a line of output; and a backslash as
 * `\\`, so that a name holding the two characters `\n` never looks like one holding a line
 * break. What is stored and what `--json` prints is the text itself; this is for people only.
 * Longer than `maxLength`, it is cut there, with an ellipsis.
 */
export function printable(text: string, maxLength = 200): string {
  return cut(text.replace(UNPRINTABLE, escape), maxLength);
}

/**
 * A message of ours made safe to print, where the text from outside it quotes was made printable
 * already: only what must not reach a terminal raw is escaped, and a backslash left as it is (it
 * starts those escapes, which would otherwise be shown escaped twice).
 */
export function printableMessage(text: string, maxLength = 200): string {
  return cut(
    text.replace(UNPRINTABLE, (char) => (char === '\\' ? char : escape(char))),
    maxLength,
  );
}

function escape(char: string): string {
  return ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text longer than `maxLength`, cut there, with an ellipsis. */
function cut(escaped: string, maxLength: number): string {
  if (escaped.length <= maxLength) return escaped;
  // Not between the two halves of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(escaped.charAt(maxLength - 1)) ? maxLength - 1 : maxLength;
  return `${escaped.slice(0, end)}…`;
}

/** 1234567 as "1,234,567". (Not toLocaleString, which loads ICU's locale data to end every import.) */
export function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}
