import type { NewPlant } from './schemas.js';
import type { PlantFilter } from './store.js';

/** Whether a filter lets every plant through: nothing to test. */
export function filtersNothing(filter: PlantFilter): boolean {
  return filter.tag === undefined && (filter.search === undefined || filter.search === '');
}

/**
 * The test of a filter, made once and run on each plant: its tag exactly, its name as
 * name-search.ts defines it. The folding tables are loaded only for a search.
 */
export async function filterTest({ tag, search }: PlantFilter): Promise<(plant: NewPlant) => boolean> {
  const named = search === undefined ? undefined : (await import('./name-search.js')).nameMatcher(search);
  if (named === undefined) return tag === undefined ? () => true : (plant) => plant.tag === tag;
  return tag === undefined ? (plant) => named(plant.name) : (plant) => plant.tag === tag && named(plant.name);
}
