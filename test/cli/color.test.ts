import { describe, expect, it } from 'vitest';
import { colorLevel } from '../../src/cli/output.js';
import { thousands } from '../../src/core/printable.js';

describe('colour', () => {
  it.each([
    [true, {}, false, 1],
    [false, {}, false, 0],
    [true, { TERM: 'xterm-256color' }, false, 2],
    [true, { COLORTERM: 'truecolor' }, false, 3],
    [true, { TERM: 'dumb' }, false, 0],
    [true, {}, true, 0],
    [true, { NO_COLOR: '1' }, false, 0],
    [true, { NO_COLOR: '' }, false, 1],
    [true, { FORCE_COLOR: '0' }, false, 0],
    [false, { FORCE_COLOR: '1' }, false, 1],
    [false, { FORCE_COLOR: '3' }, false, 3],
    [false, { FORCE_COLOR: '1', NO_COLOR: '1' }, false, 0],
    [false, { FORCE_COLOR: '1' }, true, 0],
  ])('tty=%s env=%j --no-color=%s → level %i', (tty, env, flag, level) => {
    expect(colorLevel(tty, env, flag)).toBe(level);
  });
});

describe('thousands', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [1234567, '1,234,567'],
    [-1234, '-1,234'],
    [12.6, '13'],
  ])('%d is %s', (n, text) => {
    expect(thousands(n)).toBe(text);
  });
});
