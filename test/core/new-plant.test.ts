import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/core/json.js';
import { PlantsError } from '../../src/core/errors.js';
import { checkNewPlant, parseNewPlantText } from '../../src/core/new-plant.js';
import { NewPlantSchema, NewPlantTextSchema } from '../../src/core/schemas.js';
import { jsonDocuments } from '../helpers/json-documents.js';

/** What the zod schema decides: the plant, or its issues as validate.ts words them. */
function bySchema(value: unknown, schema: typeof NewPlantSchema | typeof NewPlantTextSchema = NewPlantSchema) {
  const result = schema.safeParse(value);
  if (!result.success) return { issues: result.error.issues.map((issue) => ({ path: issue.path.length === 0 ? 'body' : issue.path.map(String).join('.'), message: issue.message })) };
  const { id, name, tag } = result.data;
  return { plant: tag === undefined ? { id, name } : { id, name, tag } };
}

const texts = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('', 'x'.repeat(1000), 'x'.repeat(1001), '\u{1F331}'.repeat(1001), '\ud800'));
const numbers = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc.constantFrom('1.5', '1e3', '-0', '0.0', '1E400', '9223372036854775808', '-9223372036854775809', '12345678901234567890123'),
);
/** JSON values of every kind a field may hold, written as text, for the lossless parser to read. */
const fieldText = fc.oneof(numbers, texts.map((text) => JSON.stringify(text)), fc.constantFrom('null', 'true', 'false', '[]', '[1]', '{}', '{"a":1}'));
const documents = jsonDocuments(['id', 'name', 'tag', 'extra'], fieldText);

describe('the direct check of a NewPlant', () => {
  it('decides every parsed JSON value as NewPlantSchema does: the same plant, or the same issues in the same order', () => {
    fc.assert(
      fc.property(documents, (text) => {
        const value = parseJson(text);
        expect(checkNewPlant(value)).toEqual(bySchema(value));
      }),
      { numRuns: 5000 },
    );
  });

  it('decides JavaScript values as the schema does too: bigints, numbers, undefined fields', () => {
    for (const value of [{ id: 1n, name: 'a' }, { id: 1, name: 'a', tag: undefined }, { id: 1.5, name: 'a' }, { id: Number.MAX_SAFE_INTEGER + 2, name: 'a' }, { name: 'a' }, { id: 1 }, undefined, null, 'x', [1]]) {
      expect(checkNewPlant(value)).toEqual(bySchema(value));
    }
  });
});

describe('the direct check of a NewPlant from text (flags, CSV cells)', () => {
  /** What parseNewPlantText decides, as bySchema words it. */
  function byFieldRules(fields: Record<string, string | undefined>) {
    try {
      return { plant: parseNewPlantText(fields) };
    } catch (error) {
      if (!(error instanceof PlantsError) || error.code !== 'invalid_plant') throw error;
      return { issues: error.issues };
    }
  }
  const textId = fc.oneof(numbers, texts, fc.constantFrom('+42', '007', '0x10', ' 1', '1_000', '--1'));
  const fields = fc.record({ id: fc.option(textId, { nil: undefined }), name: fc.option(texts, { nil: undefined }), tag: fc.option(texts, { nil: undefined }) }, { requiredKeys: [] });

  it('decides every set of text fields as NewPlantTextSchema does: the same plant, or the same issues in the same order', () => {
    fc.assert(
      fc.property(fields, (value) => {
        expect(byFieldRules(value)).toEqual(bySchema(value, NewPlantTextSchema));
      }),
      { numRuns: 5000 },
    );
  });
});
