import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePlants } from '../../src/core/encode-plants.js';
import { encodePlant } from '../../src/core/plant-json.js';
import type { NewPlant } from '../../src/core/schemas.js';

const tricky = fc.constantFrom(
  ...['"', '\\', '/', '\u0000', '\u001f', '\u007f', '\u0085', '\u2028', 'é', '\ud83c\udf31'],
  ...['\ud800', '\udc00', 'a', ' '],
);
const texts = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.array(tricky, { maxLength: 8 }).map((parts) => parts.join('')),
);
const plants = fc.array(
  fc
    .record({
      id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      name: texts,
      tag: fc.option(texts, { nil: undefined }),
    })
    .map(({ id, name, tag }): NewPlant => (tag === undefined ? { id, name } : { id, name, tag })),
  { maxLength: 12 },
);
const separators = fc.constantFrom('', '\n', ',', ',\n  ', '[\n  ', ']', 'é');

describe('plants encoded in one buffer', () => {
  it('are the text of their canonical lines joined, character for character', () => {
    fc.assert(
      fc.property(plants, separators, separators, separators, (page, before, between, after) => {
        expect(encodePlants(page, before, between, after)).toBe(before + page.map(encodePlant).join(between) + after);
      }),
      { numRuns: 3000 },
    );
  });

  it('grow the buffer for a page larger than it, and make the next page as well', () => {
    const fern = '\ud83c\udf31'.repeat(200);
    const plant = (i: number): NewPlant => ({ id: BigInt(i), name: `${fern}"${i}`, tag: 'x'.repeat(300) });
    const long = Array.from({ length: 1000 }, (_, i) => plant(i));
    expect(encodePlants(long, '[', ',', ']')).toBe(`[${long.map(encodePlant).join(',')}]`);
    const small = [{ id: 1n, name: 'Fern' }];
    expect(encodePlants(small, '', '\n', '\n')).toBe('{"id":1,"name":"Fern"}\n');
  });
});
