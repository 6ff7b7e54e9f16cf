import { describe, expect, it } from 'vitest';
import { printable, printableMessage } from '../../src/core/printable.js';

describe('printable: text from outside, shown to people', () => {
  it.each([
    ['a line break', 'two\nlines', 'two\\nlines'],
    ['a backslash and an n', 'two\\nchars', 'two\\\\nchars'],
    ['an escape character', 'a\u001b[2Jb', 'a\\u001b[2Jb'],
    ['a backslash and u001b', 'a\\u001b[2Jb', 'a\\\\u001b[2Jb'],
    ['a tab, a CR, a backslash at the end', '\t\r\\', '\\t\\r\\\\'],
    ['a right-to-left override and a lone surrogate', '\u202e\ud800', '\\u202e\\ud800'],
    ['plain text and emoji', 'Fern \u{1F331} é', 'Fern \u{1F331} é'],
  ])('shows %s unambiguously', (_what, text, shown) => {
    expect(printable(text, Infinity)).toBe(shown);
  });

  it('escapes exactly the controls, separators, bidirectional marks, lone surrogates and the backslash', () => {
    const escaped = (c: number) =>
      c <= 0x1f ||
      (c >= 0x7f && c <= 0x9f) ||
      [0x5c, 0x61c, 0x200e, 0x200f].includes(c) ||
      (c >= 0x2028 && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069) ||
      (c >= 0xd800 && c <= 0xdfff);
    for (let c = 0; c <= 0xffff; c += 1) {
      const text = String.fromCharCode(c);
      if ((printable(text, Infinity) !== text) !== escaped(c)) expect.fail(`U+${c.toString(16)}`);
    }
    // A surrogate pair is a character: kept whole, a lone half either side of it escaped.
    expect(printable('\ud83c\udf31', Infinity)).toBe('\u{1F331}');
    expect(printable('\udf31\ud83c\udf31\ud83c', Infinity)).toBe('\\udf31\u{1F331}\\ud83c');
  });

  it('never shows two different texts the same', () => {
    const texts = ['\n', '\\n', '\\\n', '\\\\n', '\u001b', '\\u001b', '\\', '\\\\', 'n'];
    const shown = texts.map((text) => printable(text, Infinity));
    expect(new Set(shown).size).toBe(texts.length);
  });

  it('cuts long text with an ellipsis, never between the halves of a surrogate pair', () => {
    expect(printable('abcdef', 3)).toBe('abc…');
    expect(printable('ab\u{1F331}', 3)).toBe('ab…');
  });

  it('leaves a backslash of a message as it is (the escapes of what it quotes), but no control character raw', () => {
    const message = `not JSON: ${printable('{"id":1,\u001b')}`;
    expect(printableMessage(`${message}\u0007`, Infinity)).toBe('not JSON: {"id":1,\\u001b\\u0007');
  });
});
