import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/json.js';
import { checkNewPlant } from '../../src/core/new-plant.js';
import { encodePlant, readPlantJson } from '../../src/core/plant-json.js';
import { ErrorBodySchema, PlantSchema } from '../../src/core/schemas.js';
import { parsePatch } from '../../src/core/validate.js';
import { jsonDocuments } from '../helpers/json-documents.js';

const issuesOf = (value: unknown) => checkNewPlant(value).invalid?.issues;

describe('a NewPlant, checked by its schema', () => {
  it('names every problem, each with its field, in the order of the schema, whatever the order of the input', () => {
    expect(issuesOf(parseJson('{"tag":3,"name":null,"id":1.5}'))).toEqual([
      { path: 'id', message: 'must be an integer, got 1.5' },
      { path: 'name', message: 'must be a string, got null' },
      { path: 'tag', message: 'must be a string, got 3' },
    ]);
  });

  it('leaves the tag out where it is absent or undefined, and reads null as given', () => {
    const { plant } = checkNewPlant({ id: 1n, name: 'Oak', tag: undefined });
    expect(plant).toEqual({ id: 1n, name: 'Oak' });
    expect(Object.keys(plant ?? {})).toEqual(['id', 'name']);
    const issues = [{ path: 'tag', message: 'must be a string, got null' }];
    expect(issuesOf({ id: 1n, name: 'Oak', tag: null })).toEqual(issues);
    expect(parsePatch({ tag: null }, 1n)).toEqual({ tag: null });
  });
});

describe("a service's answers", () => {
  it("are read by the contract's types alone: any string, an int32 error code as a number", () => {
    const long = 'x'.repeat(5000);
    const answer = JSON.parse(`{"name":"${long}","tag":"","id":"whatever"}`);
    expect(PlantSchema.safeParse(answer).data).toEqual({ name: long, tag: '' });
    expect(PlantSchema.safeParse({ tag: 'a' }).success).toBe(false);
    const error = parseJson('{"error":1002,"message":"taken"}');
    expect(ErrorBodySchema.safeParse(error).data).toEqual({ error: 1002, message: 'taken' });
    expect(ErrorBodySchema.safeParse(parseJson('{"error":2147483648,"message":"m"}')).success).toBe(false);
    expect(ErrorBodySchema.safeParse(parseJson('{"error":"1002","message":"m"}')).success).toBe(false);
  });
});

const limits = ['x'.repeat(1000), 'x'.repeat(1001), '\u{1F331}'.repeat(1000)];
const texts = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', '\ud800', ...limits));
const numbers = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.constantFrom('1.5', '1e3', '-0', '0.0', '1E400', '9223372036854775807', '-9223372036854775809'),
);
const others = fc.constantFrom('null', 'true', '[]', '{}', '{"a":1}');
const fieldText = fc.oneof(
  numbers,
  texts.map((text) => JSON.stringify(text)),
  others,
);

describe('a NewPlant, read from any JSON document', () => {
  it('is a plant the store writes and reads back the same, or is refused, a problem for each field named', () => {
    fc.assert(
      fc.property(jsonDocuments(['id', 'name', 'tag', 'extra'], fieldText), (text) => {
        const { plant, invalid } = checkNewPlant(parseJson(text));
        if (plant === undefined) {
          expect(invalid.issues.length).toBeGreaterThan(0);
          for (const issue of invalid.issues) expect(['body', 'id', 'name', 'tag']).toContain(issue.path);
          return;
        }
        expect(readPlantJson(encodePlant(plant))).toMatchObject({ plant });
      }),
      { numRuns: 3000 },
    );
  });
});
