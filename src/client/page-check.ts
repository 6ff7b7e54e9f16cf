import { PlantsError } from '../core/errors.js';
import type { NewPlant } from '../core/schemas.js';
import type { ListQuery } from '../core/store.js';

/**
 * A page of plants as the service answered `GET /plants?…`, held to the order the client asked
 * for: at most `limit` plants, each id above `after` and above the one before it, each with the
 * tag asked for, each with a name that holds the search (`named`: its test, name-search.ts). A
 * service that ignores `after` (a proxy that drops the query, an older server) would otherwise
 * answer the same page for ever, and a list would print it for ever: a page that breaks the order
 * stops the command, naming what came back (exit 4).
 */
export function checkPage(
  page: readonly NewPlant[],
  query: ListQuery,
  request: string,
  named?: (name: string) => boolean,
): readonly NewPlant[] {
  const wrong = (what: string) =>
    new PlantsError('bad_response', `the service answered GET ${request} with a page that ${what}`, { effect: 'none' });
  if (page.length > query.limit)
    throw wrong(`holds ${page.length} plants, more than the limit of ${query.limit}: as if it ignored limit`);
  const first = page[0];
  if (first !== undefined && query.after !== undefined && first.id <= query.after) {
    throw wrong(`begins at id ${first.id}, not after ${query.after}: as if it ignored after`);
  }
  for (let i = 1; i < page.length; i += 1) {
    const [before, plant] = [page[i - 1] as NewPlant, page[i] as NewPlant];
    if (plant.id <= before.id) throw wrong(`has id ${plant.id} after id ${before.id}: not in increasing id order`);
  }
  const { tag } = query;
  const other = tag === undefined ? undefined : page.find((plant) => plant.tag !== tag);
  if (other !== undefined)
    throw wrong(
      `holds plant ${other.id}, ` +
        `${other.tag === undefined ? 'with no tag' : `tagged ${JSON.stringify(other.tag)}`}, where the tag asked ` +
        `for is ${JSON.stringify(tag)}: as if it ignored tag`,
    );
  const unnamed = named === undefined ? undefined : page.find((plant) => !named(plant.name));
  if (unnamed !== undefined) {
    throw wrong(
      `holds plant ${unnamed.id}, whose name does not hold ${JSON.stringify(query.search)}: as if it ignored search`,
    );
  }
  return page;
}
