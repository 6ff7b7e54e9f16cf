import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decidePuts, samePlant } from '../../src/core/decide.js';
import type { NewPlant } from '../../src/core/schemas.js';
import type { Put, PutOutcome } from '../../src/core/store.js';

/** What puts do, one after another, each on the plants as the ones before left them. */
function reference(
  puts: readonly Put[],
  stored: ReadonlyMap<bigint, NewPlant>,
): { outcomes: PutOutcome[]; writes: NewPlant[] } {
  const plants = new Map(stored);
  const writes: NewPlant[] = [];
  const outcomes = puts.map(({ plant, expect }): PutOutcome => {
    const before = plants.get(plant.id);
    if ((expect === 'absent' && before !== undefined) || (expect === 'present' && before === undefined))
      return 'mismatch';
    if (before !== undefined && samePlant(before, plant)) return 'unchanged';
    plants.set(plant.id, plant);
    writes.push(plant);
    return before === undefined ? 'created' : 'updated';
  });
  return { outcomes, writes };
}

const plant = fc.record({ id: fc.bigInt({ min: 1n, max: 6n }), name: fc.constantFrom('a', 'b') });
const put: fc.Arbitrary<Put> = fc.oneof(
  fc.record({ plant }),
  fc.record({ plant, expect: fc.constantFrom('absent' as const, 'present' as const) }),
);

describe('puts decided in one call', () => {
  it('each on what the puts before it left, whether their ids come in ascending order, repeat, or go back', () => {
    fc.assert(
      fc.property(
        fc.array(put, { maxLength: 12 }),
        fc.boolean(),
        fc.array(plant, { maxLength: 6 }),
        (list, sorted, stored) => {
          // Sorted: ascending, each id once, until a last put of the first id, if any, goes back.
          const puts = sorted
            ? [...new Map(list.map((p) => [p.plant.id, p])).values()]
                .sort((a, b) => (a.plant.id < b.plant.id ? -1 : 1))
                .concat(list.slice(0, 1))
            : list;
          const store = new Map(stored.map((p) => [p.id, p as NewPlant]));
          const holds = (i: number) => {
            const { plant: asked } = puts[i] as Put;
            const held = store.get(asked.id);
            return held === undefined ? 'absent' : samePlant(held, asked) ? 'same' : 'other';
          };
          const expected = reference(puts, store);
          expect(decidePuts(puts, (id) => store.get(id), undefined, holds)).toEqual(expected);
          expect(decidePuts(puts, (id) => store.get(id))).toEqual(expected);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
