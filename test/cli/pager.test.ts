import { describe, expect, it } from 'vitest';
import { commandWords, pagerCommand, pagerEnv } from '../../src/cli/pager.js';

describe('the pager plants pages through', () => {
  it.each([
    [{}, { argv: ['less'], from: 'the default' }],
    [{ PAGER: 'more' }, { argv: ['more'], from: 'PAGER' }],
    [
      { PAGER: 'more', PLANTS_PAGER: 'most -s' },
      { argv: ['most', '-s'], from: 'PLANTS_PAGER' },
    ],
    [{ PAGER: 'more', PLANTS_PAGER: '' }, undefined],
    [{ PAGER: 'more', PLANTS_PAGER: ' cat ' }, undefined],
    [{ PAGER: '' }, undefined],
    [{ PAGER: 'cat' }, undefined],
    // cat with arguments is a pager like any other: whoever wrote it meant it.
    [{ PAGER: 'cat -A' }, { argv: ['cat', '-A'], from: 'PAGER' }],
  ])('%j: %j', (env, expected) => {
    expect(pagerCommand(env)).toEqual(expected);
  });

  it.each([
    ['less -FRX', ['less', '-FRX']],
    ['  less   -R  ', ['less', '-R']],
    ['"/opt/my pager/bin/p" -x', ['/opt/my pager/bin/p', '-x']],
    ["'/a b/c' 'it''s' \"say \\\"hi\\\"\"", ['/a b/c', 'its', 'say "hi"']],
    ['a\\ b c\\\\d', ['a b', 'c\\d']],
    ['\'$HOME\' "" x', ['$HOME', '', 'x']],
    ['', []],
  ])('splits %j into words as a shell would: %j', (text, words) => {
    expect(commandWords(text)).toEqual(words);
  });

  it('tells less to quit on one screen, show colours and leave the screen be, unless the person said otherwise', () => {
    expect(pagerEnv({ HOME: '/h' })).toEqual({ HOME: '/h', LESS: 'FRX', LV: '-c' });
    expect(pagerEnv({ LESS: '-i', LV: '' })).toEqual({ LESS: '-i', LV: '' });
  });
});
