/**
 * Text from outside (a server's message, a file's contents) made safe to print on one terminal
 * line: control characters are shown as escapes, so they cannot move the cursor or forge output.
 */
export function printable(text: string, maxLength = 200): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) =>
    char === '\n' ? '\\n' : char === '\t' ? '\\t' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > maxLength ? `${escaped.slice(0, maxLength)}…` : escaped;
}

/** 1234567 as "1,234,567". (toLocaleString loads ICU's locale data: ~10 ms at the end of every import.) */
export function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ',');
}
