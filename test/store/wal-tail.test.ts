import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WalTail } from '../../src/store/file/wal-tail.js';

/** What a tail must say: each id's last value among the appends it was made of. */
function reference(batches: [bigint, number][][]): Map<bigint, number> {
  const said = new Map<bigint, number>();
  for (const batch of batches) for (const [id, value] of batch) said.set(id, value);
  return said;
}

const ids = fc.oneof(fc.bigInt({ min: -3n, max: 12n }), fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n));
const batch = fc.array(fc.tuple(ids, fc.integer({ min: -1, max: 1_000_000 })), { maxLength: 8 });
/** Batches of ids in ascending order, each once: a tail searched by halving. */
const ordered = fc
  .uniqueArray(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), { maxLength: 30 })
  .map((list) => list.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

function check(tail: WalTail, batches: [bigint, number][][], asked: bigint[]): void {
  const said = reference(batches);
  for (const id of [...asked, ...said.keys()]) expect(tail.get(id)).toBe(said.get(id));
  const sorted = tail.sorted();
  const expected = [...said].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  expect(Array.from({ length: sorted.size }, (_, i) => [sorted.idAt(i), sorted.valueAt(i)])).toEqual(expected);
}

describe('a journal tail', () => {
  it("says each id's last value, in any order of appends, also where an older tail is appended to again", () => {
    fc.assert(
      fc.property(
        fc.array(batch, { maxLength: 6 }),
        fc.nat(6),
        batch,
        fc.array(ids, { maxLength: 5 }),
        (batches, forkAt, other, asked) => {
          const tails = [WalTail.empty()];
          for (const [i, appended] of batches.entries())
            tails.push(
              (tails[i] as WalTail).with(
                appended.map(([id]) => id),
                appended.map(([, value]) => value),
              ),
            );
          // Ask each tail, the newest last: an older one sees only its own lines.
          tails.forEach((tail, i) => check(tail, batches.slice(0, i), asked));
          const at = Math.min(forkAt, batches.length);
          const forked = (tails[at] as WalTail).with(
            other.map(([id]) => id),
            other.map(([, value]) => value),
          );
          check(forked, [...batches.slice(0, at), other], asked);
          check(tails[tails.length - 1] as WalTail, batches, asked);
        },
      ),
      { numRuns: 500 },
    );
  });

  it(
    'is made by a read that pushes its entries one at a time, and a read that fails leaves no tail with what it ' +
      'pushed',
    () => {
      fc.assert(
        fc.property(batch, batch, batch, fc.array(ids, { maxLength: 5 }), (first, failed, then, asked) => {
          const tail = WalTail.empty().withRead((push) => first.forEach(([id, value]) => push(id, value)));
          check(tail, [first], asked);
          expect(() =>
            tail.withRead((push) => {
              failed.forEach(([id, value]) => push(id, value));
              throw new Error('a corrupt line');
            }),
          ).toThrow('a corrupt line');
          check(tail, [first], asked);
          check(
            tail.with(
              then.map(([id]) => id),
              then.map(([, value]) => value),
            ),
            [first, then],
            asked,
          );
        }),
        { numRuns: 300 },
      );
    },
  );

  it('searched by halving while its lines are in id order, then through its map once they are not', () => {
    fc.assert(
      fc.property(ordered, batch, fc.array(ids, { maxLength: 5 }), (inOrder, after, asked) => {
        const first: [bigint, number][] = inOrder.map((id, i) => [id, i]);
        const tail = WalTail.empty().with(
          inOrder,
          first.map(([, value]) => value),
        );
        check(tail, [first], asked);
        const next = tail.with(
          after.map(([id]) => id),
          after.map(([, value]) => value),
        );
        check(next, [first, after], asked);
        check(tail, [first], asked);
      }),
      { numRuns: 500 },
    );
  });
});
