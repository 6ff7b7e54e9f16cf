import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseClassOf, foldCase, nameMatcher } from '../../src/core/name-search.js';
import { CORPUS_NAMES, CORPUS_SEARCHES } from '../helpers/search-corpus.js';

/**
 * JavaScript's own case-insensitive search with the `u` flag: simple case folding, code points (ECMAScript's
 * Canonicalize).
 */
function byRegExp(name: string, search: string): boolean {
  const pattern = [...search].map((character) => `\\u{${(character.codePointAt(0) as number).toString(16)}}`).join('');
  return new RegExp(pattern, 'iu').test(name);
}

const matches = (name: string, search: string) => nameMatcher(search)(name);

describe('name search: a substring of the name, by simple case folding, code point for code point', () => {
  it.each([
    ['Boston Fern', 'fern', true],
    ['Boston Fern', 'FERN', true],
    ['Boston Fern', 'ferns', false],
    ['Émile', 'émile', true],
    ['Émile', 'emile', false],
    ['E\u0301mile', 'émile', false],
    ['GROẞE', 'groß', true],
    ['Straße', 'STRASSE', false],
    ['İstanbul', 'istanbul', false],
    ['İstanbul', 'İSTANBUL', true],
    ['ıspanak', 'ISPANAK', false],
    ['ΟΔΟΣ', 'οδος', true],
    ['οδοσ', 'ΟΔΟς', true],
    ['Kelvin \u212a', 'k', true],
    ['ſtar', 'STAR', true],
    ['\u{10400}', '\u{10428}', true],
    ['nul\u0000inside', 'L\u0000I', true],
    ['lone \ud800 high', '\ud800', true],
    ['pair \ud83c\udf31', '\ud83c', false],
    ['pair \ud83c\udf31', '\udf31', false],
    ['pair \ud83c\udf31', '\ud83c\udf31', true],
    ['anything', '', true],
    ['', '', true],
    ['', 'a', false],
  ])('%j holds %j: %s', (name, search, expected) => {
    expect(matches(name, search)).toBe(expected);
  });

  it('agrees with JavaScript’s /iu on every name and search of the corpus', () => {
    for (const name of CORPUS_NAMES)
      for (const search of CORPUS_SEARCHES)
        expect(matches(name, search), `${JSON.stringify(name)} ⊇ ${JSON.stringify(search)}`).toBe(
          byRegExp(name, search),
        );
  });

  it('agrees with JavaScript’s /iu on any text of cased letters, surrogates and the rest', () => {
    const tricky = [
      'a',
      'A',
      'k',
      'K',
      '\u212a',
      's',
      'S',
      '\u017f',
      'ß',
      'ẞ',
      'İ',
      'ı',
      'i',
      'I',
      'σ',
      'ς',
      'Σ',
      'é',
      'É',
      '\u0345',
      'ι',
      '\u1fbe',
      '\u{10400}',
      '\u{10428}',
      '\ud800',
      '\udc00',
      '\u0000',
      '\ufdd0',
      '"',
      '\\',
    ];
    const text = fc.array(fc.constantFrom(...tricky), { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (name, search) => matches(name, search) === byRegExp(name, search)),
      { numRuns: 3000 },
    );
  });

  it('keeps each text as long in UTF-16, and folds alike exactly the texts /iu makes one', () => {
    for (const text of CORPUS_NAMES) expect(foldCase(text).length).toBe(text.length);
    expect(foldCase('Fern')).toBe(foldCase('fERN'));
    expect(foldCase('Fern')).toBe(foldCase('fern'));
    expect(foldCase('\u212a')).toBe(foldCase('k'));
    expect(foldCase('ı')).not.toBe(foldCase('i'));
  });

  it('knows the classes of simple case folding: three for σ, none for İ', () => {
    expect(caseClassOf(0x3c3)).toEqual([0x3a3, 0x3c2, 0x3c3]);
    expect(caseClassOf(0x6b)).toEqual([0x4b, 0x6b, 0x212a]);
    expect(caseClassOf(0x130)).toBeUndefined();
    expect(caseClassOf(0x31)).toBeUndefined();
  });
});
