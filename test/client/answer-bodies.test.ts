import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorBody, plantBody } from '../../src/client/answer-bodies.js';
import { parseJson } from '../../src/core/json.js';
import { ErrorBodySchema, PlantSchema } from '../../src/core/schemas.js';
import { jsonDocuments } from '../helpers/json-documents.js';

/** What a zod schema decides: its output, or undefined. */
function bySchema(schema: typeof PlantSchema | typeof ErrorBodySchema, value: unknown): unknown {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

const texts = fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('', '\ud800', 'x'.repeat(1001)));
const numbers = fc.oneof(
  fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }).map(String),
  fc.constantFrom('2147483647', '2147483648', '-2147483648', '-2147483649', '1.5', '1e3', '-0', '1E400', '400', '1002'),
);
/** JSON values of every kind a field may hold, written as text. */
const fieldText = fc.oneof(numbers, texts.map((text) => JSON.stringify(text)), fc.constantFrom('null', 'true', 'false', '[]', '["a"]', '{}', '{"a":1}'));
const documents = jsonDocuments(['name', 'tag', 'error', 'message', 'extra'], fieldText);

describe("the answers' bodies, read by the field rules", () => {
  it('reads every JSON document, parsed either way, as PlantSchema and ErrorBodySchema do', () => {
    fc.assert(
      fc.property(documents, (text) => {
        for (const value of [JSON.parse(text) as unknown, parseJson(text)]) {
          expect(plantBody(value)).toEqual(bySchema(PlantSchema, value));
          expect(errorBody(value)).toEqual(bySchema(ErrorBodySchema, value));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('reads JavaScript values as the schemas do too: undefined fields, bigints, non-objects', () => {
    for (const value of [{ name: 'a', tag: undefined }, { error: 1n, message: 'm' }, { error: 1.5, message: 'm' }, { error: 2 ** 31, message: 'm' }, undefined, null, 'x', [1]]) {
      expect(plantBody(value)).toEqual(bySchema(PlantSchema, value));
      expect(errorBody(value)).toEqual(bySchema(ErrorBodySchema, value));
    }
  });
});
