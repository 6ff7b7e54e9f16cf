import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameMatcher } from '../../src/core/name-search.js';
import type { NewPlant } from '../../src/core/schemas.js';
import type { PlantStore } from '../../src/core/store.js';
import { CORPUS_NAMES, CORPUS_SEARCHES } from './search-corpus.js';
import type { StoreMaker } from './store-conformance.js';

const ids = (page: readonly NewPlant[]) => page.map((plant) => plant.id);

/** The plants of the corpus, ids from 1 (and one at each end of int64), tagged a, b, or not. */
function corpusPlants(): NewPlant[] {
  return CORPUS_NAMES.map((name, i): NewPlant => {
    const id = i === 0 ? -9223372036854775808n : i === 1 ? 9223372036854775807n : BigInt(i);
    return i % 3 === 2 ? { id, name } : { id, name, tag: i % 3 === 0 ? 'a' : 'b' };
  }).sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** What a search (and a tag) finds by the one definition of it (src/core/name-search.ts). */
function expected(plants: readonly NewPlant[], search: string, tag?: string): bigint[] {
  const named = nameMatcher(search);
  return ids(plants.filter((plant) => named(plant.name) && (tag === undefined || plant.tag === tag)));
}

/**
 * What `list --search` and `--count` find, held to the one definition of a name search for every
 * store (memory, file, PostgreSQL, a service through the client): the same plants, in the same
 * order, counted alike, for each name and search of the tricky corpus and for random texts.
 */
export function describeSearchConformance(name: string, maker: StoreMaker): void {
  async function withStore(work: (store: PlantStore) => Promise<void>): Promise<void> {
    const { store } = await maker.open();
    try {
      await work(store);
    } finally {
      await store.close();
    }
  }

  describe(`${name}: name search and count`, () => {
    it('finds and counts what the definition finds, on the corpus, alone and with a tag', async () => {
      await withStore(async (store) => {
        const plants = corpusPlants();
        await store.addAll(plants);
        expect(await store.count({})).toBe(plants.length);
        expect(await store.count({ tag: 'a' })).toBe(expected(plants, '', 'a').length);
        for (const search of CORPUS_SEARCHES) {
          const what = JSON.stringify(search);
          expect(ids(await store.list({ limit: 1000, search })), what).toEqual(expected(plants, search));
          expect(await store.count({ search }), what).toBe(expected(plants, search).length);
          expect(ids(await store.list({ limit: 1000, search, tag: 'b' })), what).toEqual(expected(plants, search, 'b'));
          expect(await store.count({ search, tag: 'b' }), what).toBe(expected(plants, search, 'b').length);
        }
      });
    });

    it('pages a search by after and limit, as a list without one', async () => {
      await withStore(async (store) => {
        const plants = corpusPlants();
        await store.addAll(plants);
        const all = expected(plants, 'e');
        const paged: bigint[] = [];
        for (let after: bigint | undefined; ;) {
          const page = await store.list({ limit: 2, search: 'E', ...(after === undefined ? {} : { after }) });
          paged.push(...ids(page));
          if (page.length < 2) break;
          after = page[1]?.id;
        }
        expect(paged).toEqual(all);
        expect(all.length).toBeGreaterThan(4);
      });
    });

    it('agrees with the definition on random names and searches: cased letters, surrogates, NUL, escapes', async () => {
      const cased = ['a', 'A', 'k', '\u212a', 'S', '\u017f', 'ß', 'ẞ', 'İ', 'i', 'σ', 'ς', 'Σ'];
      const astral = ['\u{10400}', '\u{10428}'];
      const pieces = [...cased, ...astral, '\ud800', '\udc00', '\u0000', '\ufdd0', '"', '\\', 'u', '0', '%', '_', '.'];
      const piece = fc.constantFrom(...pieces);
      const text = (maxLength: number) => fc.array(piece, { maxLength }).map((parts) => parts.join(''));
      const names = fc.uniqueArray(text(6), { minLength: 1, maxLength: 8 });
      const searches = fc.array(text(3), { minLength: 1, maxLength: 4 });
      await withStore(async (store) => {
        await fc.assert(
          fc.asyncProperty(names, searches, async (named, searched) => {
            await store.deleteAll(ids(await store.list({ limit: 1000 })));
            const plants = named.map((name, i): NewPlant => ({ id: BigInt(i), name }));
            await store.addAll(plants);
            for (const search of searched) {
              const found = ids(await store.list({ limit: 1000, search }));
              expect(found, JSON.stringify({ named, search })).toEqual(expected(plants, search));
              expect(await store.count({ search })).toBe(expected(plants, search).length);
            }
          }),
          { numRuns: 25 },
        );
      });
    });
  });
}
