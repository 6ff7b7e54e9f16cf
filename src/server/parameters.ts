import { int64FromCanonicalText } from '../core/int64.js';
import { withinLimit } from '../core/fields.js';
import type { ListQuery, PlantFilter } from '../core/store.js';
import { rejection } from './failures.js';

/** A page of GET /plants holds this many plants unless `limit` says otherwise, and never more than LIMIT_MAX. */
export const LIMIT_DEFAULT = 100;
export const LIMIT_MAX = 1_000;

const ID_FORM = 'an int64 in base 10, without a plus sign or leading zeros (e.g. 9223372036854775807, -1, 0)';

function invalid(message: string) {
  return rejection(400, 'invalid_parameter', message);
}

/** The id of a `/plants/{id}` path: one text names one plant, so only the canonical form is taken. */
export function plantId(segment: string | undefined): bigint {
  const id = segment === undefined ? undefined : int64FromCanonicalText(segment);
  if (id === undefined) throw invalid(`the id in the path must be ${ID_FORM}`);
  return id;
}

/**
 * The page a GET /plants asks for: `limit` (1 to 1,000, default 100), `after` (an id, as for a
 * path), and the filter (filterOf). Each at most once; any other parameter is refused, so that a
 * misspelt one is not silently ignored.
 */
export function listQuery(target: string): ListQuery {
  const params = queryParameters(target, 'GET /plants', ['limit', 'after', 'tag', 'search']);
  const query: ListQuery = { limit: LIMIT_DEFAULT, ...filterOf(params) };
  const limit = params.get('limit');
  if (limit !== null) {
    if (!/^[1-9][0-9]{0,3}$/.test(limit) || Number(limit) > LIMIT_MAX)
      throw invalid(`limit must be a whole number from 1 to ${LIMIT_MAX}`);
    query.limit = Number(limit);
  }
  const after = params.get('after');
  if (after !== null) {
    const id = int64FromCanonicalText(after);
    if (id === undefined) throw invalid(`after must be ${ID_FORM}`);
    query.after = id;
  }
  return query;
}

/** The filter a GET /plants/count asks for (filterOf), each parameter at most once, and no other. */
export function countQuery(target: string): PlantFilter {
  return filterOf(queryParameters(target, 'GET /plants/count', ['tag', 'search']));
}

/**
 * `tag` (any text, percent-encoded): only plants with exactly this tag; `search` (any text up to
 * a name's length): only plants whose name holds it, case aside (src/core/name-search.ts).
 */
function filterOf(params: URLSearchParams): PlantFilter {
  const filter: PlantFilter = {};
  const tag = params.get('tag');
  if (tag !== null) filter.tag = tag;
  const search = params.get('search');
  if (search !== null) {
    if (!withinLimit(search)) throw invalid('search must be at most 1,000 characters: no name is longer');
    filter.search = search;
  }
  return filter;
}

/** The query of a request target, each of the `known` parameters at most once, and no other. */
function queryParameters(target: string, request: string, known: readonly string[]): URLSearchParams {
  const at = target.indexOf('?');
  const params = new URLSearchParams(at === -1 ? '' : target.slice(at + 1));
  const seen = new Set<string>();
  for (const key of params.keys()) {
    const takes = `${known.slice(0, -1).join(', ')} and ${known.at(-1)}`;
    const unknown = `unknown query parameter ${JSON.stringify(key)}`;
    if (!known.includes(key)) throw invalid(`${unknown}: ${request} takes ${takes}`);
    if (seen.has(key)) throw invalid(`the query parameter ${key} is given more than once`);
    seen.add(key);
  }
  return params;
}
