import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import { etagOf } from '../../src/core/etag.js';
import { isDuplicate, type AddOutcome, type PlantStore } from '../../src/core/store.js';

/** Opens a fresh, empty store; `reopen` opens the same store again, as another process would. */
export interface StoreMaker {
  open(): Promise<{ store: PlantStore; reopen(): Promise<PlantStore> }>;
}

const MIN = -9223372036854775808n;
const MAX = 9223372036854775807n;
const ids = (page: readonly NewPlant[]) => page.map((plant) => plant.id);
/** Outcomes as the contract tells them apart: a service says `duplicate` in its own words (error 1002). */
const kinds = (outcomes: readonly AddOutcome[]) =>
  outcomes.map((outcome) => (outcome === 'added' ? outcome : isDuplicate(outcome) ? 'duplicate' : outcome));

/**
 * What every PlantStore does, whatever keeps the plants: the CLI, the server and import rely on
 * exactly this. Each store's own test file runs it on that store.
 */
export function describeStoreConformance(name: string, maker: StoreMaker): void {
  async function withStore(
    work: (store: PlantStore, reopen: () => Promise<PlantStore>) => Promise<void>,
  ): Promise<void> {
    const { store, reopen } = await maker.open();
    try {
      await work(store, reopen);
    } finally {
      await store.close();
    }
  }

  describe(`${name}: the PlantStore contract`, () => {
    it('adds in order, refusing ids taken before or earlier in the same call, keeps them when reopened', async () => {
      await withStore(async (store, reopen) => {
        expect(await store.addAll([{ id: 1n, name: 'a' }])).toEqual(['added']);
        expect(
          kinds(
            await store.addAll([
              { id: 2n, name: 'b' },
              { id: 1n, name: 'x' },
              { id: 2n, name: 'y' },
              { id: MAX, name: 'max', tag: 't' },
            ]),
          ),
        ).toEqual(['added', 'duplicate', 'duplicate', 'added']);
        expect(await store.addAll([])).toEqual([]);
        const again = await reopen();
        try {
          expect(await again.list({ limit: 10 })).toEqual([
            { id: 1n, name: 'a' },
            { id: 2n, name: 'b' },
            { id: MAX, name: 'max', tag: 't' },
          ]);
        } finally {
          await again.close();
        }
      });
    });

    it('deletes, saying which ids were there, and lets a deleted id be added again', async () => {
      await withStore(async (store) => {
        await store.addAll([
          { id: 1n, name: 'a' },
          { id: 2n, name: 'b' },
          { id: 3n, name: 'c' },
        ]);
        expect(await store.deleteAll([2n, 9n, 2n, 3n])).toEqual(['deleted', 'absent', 'absent', 'deleted']);
        expect(await store.get(2n)).toBeUndefined();
        expect(await store.addAll([{ id: 2n, name: 'again' }])).toEqual(['added']);
        expect(await store.get(2n)).toEqual({ id: 2n, name: 'again' });
        expect(await store.deleteAll([])).toEqual([]);
      });
    });

    it('probes: resolves where a write would be taken, and changes no plant', async () => {
      await withStore(async (store, reopen) => {
        await store.addAll([{ id: 1n, name: 'a' }]);
        await store.probe();
        await store.probe();
        expect(await store.list({ limit: 10 })).toEqual([{ id: 1n, name: 'a' }]);
        const again = await reopen();
        try {
          expect(await again.list({ limit: 10 })).toEqual([{ id: 1n, name: 'a' }]);
        } finally {
          await again.close();
        }
      });
    });

    it('pages in numeric id order across the whole int64 range, after an id, with a tag', async () => {
      await withStore(async (store) => {
        // 9 < 10 < 100 as numbers, not as text; negative ids before 0.
        const all = [100n, MAX, -1n, 9n, 0n, MIN, 10n].map((id): NewPlant =>
          id % 2n === 0n ? { id, name: `p${id}`, tag: 'even' } : { id, name: `p${id}` },
        );
        expect(await store.addAll(all)).toEqual(all.map(() => 'added'));
        expect(ids(await store.list({ limit: 100 }))).toEqual([MIN, -1n, 0n, 9n, 10n, 100n, MAX]);
        expect(ids(await store.list({ limit: 2 }))).toEqual([MIN, -1n]);
        expect(ids(await store.list({ limit: 3, after: -1n }))).toEqual([0n, 9n, 10n]);
        expect(ids(await store.list({ limit: 100, after: 10n }))).toEqual([100n, MAX]);
        expect(ids(await store.list({ limit: 100, after: MAX }))).toEqual([]);
        expect(ids(await store.list({ limit: 100, tag: 'even' }))).toEqual([MIN, 0n, 10n, 100n]);
        expect(ids(await store.list({ limit: 1, tag: 'even', after: 0n }))).toEqual([10n]);
        expect(ids(await store.list({ limit: 100, tag: 'odd' }))).toEqual([]);
      });
    });

    it('puts: creates, replaces whole, writes nothing for the same plant, holds each to its precondition', async () => {
      await withStore(async (store, reopen) => {
        expect(await store.putAll([{ plant: { id: 1n, name: 'a', tag: 't' } }])).toEqual(['created']);
        expect(await store.putAll([{ plant: { id: 1n, name: 'a', tag: 't' } }])).toEqual(['unchanged']);
        // In order, each on what the one before left: a replacement without a tag leaves none.
        expect(
          await store.putAll([
            { plant: { id: 1n, name: 'b' } },
            { plant: { id: 1n, name: 'c' } },
            { plant: { id: 2n, name: 'x' }, expect: 'absent' },
            { plant: { id: 1n, name: 'd' }, expect: 'absent' },
            { plant: { id: 3n, name: 'y' }, expect: 'present' },
          ]),
        ).toEqual(['updated', 'updated', 'created', 'mismatch', 'mismatch']);
        const etag = etagOf({ id: 1n, name: 'c' });
        expect(
          await store.putAll([
            { plant: { id: 1n, name: 'e' }, expect: { etags: ['"nope"'] } },
            { plant: { id: 1n, name: 'f', tag: 'u' }, expect: { etags: ['"other"', etag] } },
            { plant: { id: 1n, name: 'g' }, expect: { etags: [etag] } },
            { plant: { id: 2n, name: 'x' }, expect: 'present' },
          ]),
        ).toEqual(['mismatch', 'updated', 'mismatch', 'unchanged']);
        const again = await reopen();
        try {
          expect(await again.list({ limit: 10 })).toEqual([
            { id: 1n, name: 'f', tag: 'u' },
            { id: 2n, name: 'x' },
          ]);
        } finally {
          await again.close();
        }
      });
    });

    it('patches: changes only the fields given, null removes the tag; absent, mismatched change nothing', async () => {
      await withStore(async (store, reopen) => {
        await store.addAll([{ id: 1n, name: 'a', tag: 't' }]);
        expect(await store.patchAll([{ id: 1n, name: 'b' }])).toEqual([
          { plant: { id: 1n, name: 'b', tag: 't' }, changed: true },
        ]);
        expect(await store.patchAll([{ id: 1n, tag: null }, { id: 1n }, { id: 1n, name: 'b' }])).toEqual([
          { plant: { id: 1n, name: 'b' }, changed: true },
          { plant: { id: 1n, name: 'b' }, changed: false },
          { plant: { id: 1n, name: 'b' }, changed: false },
        ]);
        expect(
          await store.patchAll([
            { id: 9n, name: 'x' },
            { id: 9n, name: 'x', expect: { etags: ['"any"'] } },
            { id: 9n, name: 'x', expect: 'absent' },
          ]),
        ).toEqual(['absent', 'mismatch', 'absent']);
        const etag = etagOf({ id: 1n, name: 'b' });
        expect(
          await store.patchAll([
            { id: 1n, tag: 'u', expect: { etags: [etag] } },
            { id: 1n, name: 'c', expect: { etags: [etag] } },
            { id: 1n, name: 'd', expect: 'present' },
          ]),
        ).toEqual([
          { plant: { id: 1n, name: 'b', tag: 'u' }, changed: true },
          'mismatch',
          { plant: { id: 1n, name: 'd', tag: 'u' }, changed: true },
        ]);
        const again = await reopen();
        try {
          expect(await again.get(1n)).toEqual({ id: 1n, name: 'd', tag: 'u' });
          expect(await again.get(9n)).toBeUndefined();
        } finally {
          await again.close();
        }
      });
    });

    it('deletes held to a precondition: the plant in the state named, else nothing', async () => {
      await withStore(async (store) => {
        await store.addAll([
          { id: 1n, name: 'a' },
          { id: 2n, name: 'b' },
        ]);
        expect(
          await store.deleteAll([
            { id: 1n, expect: { etags: ['"stale"'] } },
            { id: 2n, expect: { etags: [etagOf({ id: 2n, name: 'b' })] } },
            { id: 2n, expect: 'present' },
            { id: 3n, expect: 'present' },
            { id: 3n },
            3n,
          ]),
        ).toEqual(['mismatch', 'deleted', 'mismatch', 'mismatch', 'absent', 'absent']);
        expect(await store.list({ limit: 10 })).toEqual([{ id: 1n, name: 'a' }]);
      });
    });

    it('keeps any name and tag the contract allows exactly: NUL, lone surrogates, U+FDD0, quotes, emoji', async () => {
      const odd = [
        '',
        'a\u0000b',
        '\ud800',
        'x\udc00',
        '\ufdd0"lookalike"',
        '\ufdd0',
        '"\\',
        '🌿 fern',
        'line\nbreak',
        '\u202eevil',
      ];
      await withStore(async (store, reopen) => {
        const plants = odd.map((text, i): NewPlant => ({
          id: BigInt(i),
          name: text,
          tag: odd[odd.length - 1 - i] as string,
        }));
        expect(await store.addAll(plants)).toEqual(plants.map(() => 'added'));
        const again = await reopen();
        try {
          expect(await again.list({ limit: 100 })).toEqual(plants);
          for (const plant of plants) {
            expect(await again.get(plant.id)).toEqual(plant);
            expect(await again.list({ limit: 100, tag: plant.tag as string })).toEqual([plant]);
          }
        } finally {
          await again.close();
        }
      });
    });

    it('gives back every plant it took, for arbitrary strings and ids', async () => {
      await withStore(async (store) => {
        const plant = fc.record({
          id: fc.bigInt({ min: MIN, max: MAX }),
          name: fc.string({ unit: 'binary', maxLength: 30 }),
          tag: fc.option(fc.string({ unit: 'binary', maxLength: 10 }), { nil: undefined }),
        });
        await fc.assert(
          fc.asyncProperty(fc.uniqueArray(plant, { selector: (p) => p.id, maxLength: 20 }), async (generated) => {
            const plants = generated.map((p): NewPlant =>
              p.tag === undefined ? { id: p.id, name: p.name } : { id: p.id, name: p.name, tag: p.tag },
            );
            await store.deleteAll(ids(await store.list({ limit: 1000 })));
            expect(await store.addAll(plants)).toEqual(plants.map(() => 'added'));
            expect(await store.list({ limit: 1000 })).toEqual([...plants].sort((a, b) => (a.id < b.id ? -1 : 1)));
          }),
          { numRuns: 40 },
        );
      });
    });
  });
}
