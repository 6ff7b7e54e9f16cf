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
