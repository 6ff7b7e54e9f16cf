import { describe, expect, it } from 'vitest';
import { PlantsError } from '../../src/core/errors.js';
import { parseJson, stringifyJson } from '../../src/core/json.js';
import { parseNewPlantText } from '../../src/core/new-plant.js';
import { parseNewPlant } from '../../src/core/validate.js';

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(PlantsError);
    expect((error as PlantsError).code).toBe('invalid_plant');
    return (error as PlantsError).issues;
  }
  throw new Error('expected a validation error');
}

describe('a NewPlant from JSON', () => {
  it.each([
    ['{"id":9223372036854775807,"name":"Oak"}', 9223372036854775807n],
    ['{"id":-9223372036854775808,"name":"Oak"}', -9223372036854775808n],
    ['{"id":9007199254740993,"name":"Oak"}', 9007199254740993n],
    ['{"id":1.0,"name":"Oak"}', 1n],
    ['{"id":1e2,"name":"Oak"}', 100n],
    ['{"id":1.5e1,"name":"Oak"}', 15n],
    ['{"id":-0,"name":"Oak"}', 0n],
    ['{"id":922337203685477580.7e1,"name":"Oak"}', 9223372036854775807n],
  ])('%s has the exact id %s', (body, id) => {
    expect(parseNewPlant(parseJson(body)).id).toBe(id);
  });

  it.each([
    [
      '{"id":9223372036854775808,"name":"Oak"}',
      'id',
      'must be between -9223372036854775808 and 9223372036854775807, got 9223372036854775808',
    ],
    [
      '{"id":-9223372036854775809,"name":"Oak"}',
      'id',
      'must be between -9223372036854775808 and 9223372036854775807, got -9223372036854775809',
    ],
    ['{"id":1e400,"name":"Oak"}', 'id', 'must be between -9223372036854775808 and 9223372036854775807, got 1e400'],
    ['{"id":1.5,"name":"Oak"}', 'id', 'must be an integer, got 1.5'],
    ['{"id":"1","name":"Oak"}', 'id', 'must be an integer, got the string "1"'],
    ['{"id":null,"name":"Oak"}', 'id', 'must be an integer, got null'],
    ['{"id":true,"name":"Oak"}', 'id', 'must be an integer, got true'],
    ['{"name":"Oak"}', 'id', 'is required'],
    ['{"id":1}', 'name', 'is required'],
    ['{"id":1,"name":7}', 'name', 'must be a string, got 7'],
    [`{"id":1,"name":"${'x'.repeat(1001)}"}`, 'name', 'must be at most 1,000 characters'],
    [`{"id":1,"name":"Oak","tag":"${'\\ud83c\\udf31'.repeat(1001)}"}`, 'tag', 'must be at most 1,000 characters'],
    ['{"id":1,"name":"Oak","tag":null}', 'tag', 'must be a string, got null'],
    ['[]', 'body', 'must be a JSON object, got an array'],
    ['5', 'body', 'must be a JSON object, got 5'],
    ['"plant"', 'body', 'must be a JSON object, got the string "plant"'],
  ])('%s is refused: %s %s', (body, path, message) => {
    expect(issuesOf(() => parseNewPlant(parseJson(body)))).toEqual([{ path, message }]);
  });

  it('reports every problem at once, each with its field', () => {
    expect(issuesOf(() => parseNewPlant(parseJson('{"id":1.5,"tag":3}')))).toEqual([
      { path: 'id', message: 'must be an integer, got 1.5' },
      { path: 'name', message: 'is required' },
      { path: 'tag', message: 'must be a string, got 3' },
    ]);
  });

  it('drops fields the contract does not name', () => {
    expect(parseNewPlant(parseJson('{"id":1,"name":"Oak","color":"green","tag":"tree"}'))).toEqual({
      id: 1n,
      name: 'Oak',
      tag: 'tree',
    });
  });

  it.each([
    ['an empty name and tag', '', ''],
    ['control characters', 'a\u0000b\tc\nd\u001b[2J\u007f\u0085', '\r\n'],
    ['lone surrogates', '\ud800', 'x\udfff'],
    ['right-to-left marks', '\u200f\u202eesreveR', '\u2066'],
    ['emoji', '\u{1F331}', '\u{1F33F}\u200d'],
    ['1,000 characters, each of two UTF-16 units', '\u{1F331}'.repeat(1000), 'ñ'.repeat(1000)],
  ])('accepts any string the contract accepts, within 1,000 characters: %s', (_what, name, tag) => {
    expect(parseNewPlant(parseJson(JSON.stringify({ id: 1, name, tag })))).toEqual({ id: 1n, name, tag });
    expect(parseNewPlantText({ id: '1', name, tag })).toEqual({ id: 1n, name, tag });
  });
});

describe('a NewPlant from text (flags, CSV cells)', () => {
  it.each([
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['+42', 42n],
    ['007', 7n],
  ])('id %s is %s', (id, expected) => {
    expect(parseNewPlantText({ id, name: 'Oak' }).id).toBe(expected);
  });

  it.each(['1.5', 'abc', '0x10', '', ' 1', '1e3', '1_000', '--1'])('id %j is not a base-10 integer', (id) => {
    expect(issuesOf(() => parseNewPlantText({ id, name: 'Oak' }))).toEqual([
      { path: 'id', message: `must be a base-10 integer, got ${JSON.stringify(id)}` },
    ]);
  });

  it.each(['9223372036854775808', '-9223372036854775809', '99999999999999999999999'])('id %s is out of range', (id) => {
    expect(issuesOf(() => parseNewPlantText({ id, name: 'Oak' }))[0]?.message).toBe(
      `must be between -9223372036854775808 and 9223372036854775807, got ${id}`,
    );
  });

  it('names every missing field', () => {
    expect(issuesOf(() => parseNewPlantText({}))).toEqual([
      { path: 'id', message: 'is required' },
      { path: 'name', message: 'is required' },
    ]);
  });
});

describe('JSON text', () => {
  it('keeps every digit of an int64 both ways', () => {
    const text = '{"id":-9223372036854775808,"name":"Oak","other":9223372036854775807}';
    const plant = parseNewPlant(parseJson(text));
    expect(stringifyJson({ id: plant.id })).toBe('{"id":-9223372036854775808}');
    expect(stringifyJson(parseJson(text))).toBe(text);
  });
});
