import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/json.js';
import { encodePlant, readPlantJson } from '../../src/core/plant-json.js';
import { ERROR_BODY, NEW_PLANT, PATCH, PLANT } from '../../src/core/schemas.js';
import { checkShape } from '../../src/core/shapes.js';
import { jsonDocuments } from '../helpers/json-documents.js';

describe('a shape, read', () => {
  it('names every problem, each with its field, in the order of the shape, whatever the order of the input', () => {
    expect(checkShape(NEW_PLANT, parseJson('{"tag":3,"name":null,"id":1.5}'))).toEqual({
      issues: [
        { path: 'id', message: 'must be an integer, got 1.5' },
        { path: 'name', message: 'must be a string, got null' },
        { path: 'tag', message: 'must be a string, got 3' },
      ],
    });
  });

  it('refuses anything but a JSON object as a whole, at `body`', () => {
    for (const [text, got] of [['[]', 'an array'], ['5', '5'], ['null', 'null'], ['"x"', 'the string "x"']]) {
      const issues = [{ path: 'body', message: `must be a JSON object, got ${got}` }];
      expect(checkShape(NEW_PLANT, parseJson(text as string))).toEqual({ issues });
    }
  });

  it('leaves an optional field out where it is absent or undefined, and reads null as given', () => {
    const read = checkShape(NEW_PLANT, { id: 1n, name: 'Oak', tag: undefined });
    expect(read).toEqual({ value: { id: 1n, name: 'Oak' } });
    expect(Object.keys(read.value ?? {})).toEqual(['id', 'name']);
    const issues = [{ path: 'tag', message: 'must be a string, got null' }];
    expect(checkShape(NEW_PLANT, { id: 1n, name: 'Oak', tag: null }).issues).toEqual(issues);
    expect(checkShape(PATCH, { tag: null })).toEqual({ value: { tag: null } });
  });

  it('drops the fields it does not name', () => {
    const read = checkShape(NEW_PLANT, parseJson('{"id":1,"name":"Oak","color":"green"}'));
    expect(read).toEqual({ value: { id: 1n, name: 'Oak' } });
  });

  it("reads a service's answers by the contract's types alone: any string, an int32 error code as a number", () => {
    const long = 'x'.repeat(5000);
    const answer = JSON.parse(`{"name":"${long}","tag":"","id":"whatever"}`);
    expect(checkShape(PLANT, answer)).toEqual({ value: { name: long, tag: '' } });
    expect(checkShape(PLANT, { tag: 'a' }).value).toBeUndefined();
    const error = parseJson('{"error":1002,"message":"taken"}');
    expect(checkShape(ERROR_BODY, error)).toEqual({ value: { error: 1002, message: 'taken' } });
    expect(checkShape(ERROR_BODY, parseJson('{"error":2147483648,"message":"m"}')).value).toBeUndefined();
    expect(checkShape(ERROR_BODY, parseJson('{"error":"1002","message":"m"}')).value).toBeUndefined();
  });
});

const limits = ['x'.repeat(1000), 'x'.repeat(1001), '\u{1F331}'.repeat(1000)];
const texts = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '\ud800', ...limits));
const numbers = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.constantFrom('1.5', '1e3', '-0', '0.0', '1E400', '9223372036854775807', '-9223372036854775809'),
);
const others = fc.constantFrom('null', 'true', '[]', '{}', '{"a":1}');
const fieldText = fc.oneof(numbers, texts.map((text) => JSON.stringify(text)), others);

describe('a NewPlant, read from any JSON document', () => {
  it('is a plant the store writes and reads back the same, or is refused, a problem for each field named', () => {
    fc.assert(
      fc.property(jsonDocuments(['id', 'name', 'tag', 'extra'], fieldText), (text) => {
        const { value: plant, issues } = checkShape(NEW_PLANT, parseJson(text));
        if (plant === undefined) {
          expect(issues.length).toBeGreaterThan(0);
          for (const issue of issues) expect(['body', 'id', 'name', 'tag']).toContain(issue.path);
          return;
        }
        expect(readPlantJson(encodePlant(plant))).toMatchObject({ plant });
      }),
      { numRuns: 3000 },
    );
  });
});
