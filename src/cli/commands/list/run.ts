import type { PlantField } from '../../../core/plant-fields.js';
import type { NewPlant } from '../../../core/schemas.js';
import type { PlantFilter, PlantStore } from '../../../core/store.js';
import type { CommandImplementation } from '../../command-implementation.js';
import { defined } from '../../command-spec.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import type { Target } from '../../target-flags.js';
import { openTargetStore, withTargetStore } from '../../target-store.js';
import { exitCode, renderHuman, renderJson, type ListFormat, type ListResult } from './render.js';

export interface ListOptions {
  limit?: number;
  /** As given: checked when it runs. */
  after?: string;
  tag?: string;
  /** Names that hold it, case aside (src/core/name-search.ts). */
  search?: string;
  /** Only how many plants match (--tag, --search). */
  count: boolean;
  /** What import reads (--format); else a table on a terminal, a line a plant in a pipe. */
  format?: ListFormat;
  target: Target;
  json: boolean;
  /** With --json, only these fields of each plant. */
  fields?: readonly PlantField[];
  /** On a terminal, through the pager (--no-pager: not). */
  pager: boolean;
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
  exitCode,
  paged: (options) => options.pager && !options.count,
} satisfies CommandImplementation<ListOptions, ListResult>;

/** Plants are read a page of this many at a time (the most a service page holds). */
const PAGE = 1_000;

/** Where a list is: the last id read, how many plants the limit leaves, and whether it is over. */
interface Cursor {
  after: bigint | undefined;
  left: number;
  done: boolean;
}

async function run(options: ListOptions, ctx: Context): Promise<ListResult> {
  if (options.count) {
    const count = await withTargetStore(options.target, ctx, ({ store }) => store.count(filterOf(options)));
    return { count };
  }
  const cursor: Cursor = {
    after: options.after === undefined ? undefined : idFlag('list', '--after', options.after),
    left: options.limit ?? Infinity,
    done: false,
  };
  const filtered = cursor.after !== undefined || options.tag !== undefined || options.search !== undefined;
  const { store, where } = await openTargetStore(options.target, ctx);
  // The first page is read before anything is written: a list that fails at once writes nothing
  // but its error (one JSON document with --json, no CSV header).
  let first: NewPlant[];
  try {
    first = await nextPage(store, options, cursor);
  } catch (error) {
    await store.close();
    throw error;
  }
  const { format, fields } = options;
  const none = filtered ? `no plants match in ${where}` : `no plants yet in ${where}`;
  return { pages: pagesOf(store, first, cursor, options), none, ...defined({ format, fields }), notWritten: [] };
}

/** The next page after the cursor, at most a page and at most what the limit leaves; the cursor moved past it. */
async function nextPage(store: PlantStore, options: ListOptions, cursor: Cursor): Promise<NewPlant[]> {
  const limit = Math.min(PAGE, cursor.left);
  const after = cursor.after === undefined ? {} : { after: cursor.after };
  const page = await store.list({ limit, ...after, ...filterOf(options) });
  cursor.left -= page.length;
  cursor.done = page.length < limit || cursor.left === 0;
  if (page.length > 0) cursor.after = (page[page.length - 1] as NewPlant).id;
  return page;
}

/** The first page, then page after page until the list is over; the store closed at the end. */
async function* pagesOf(
  store: PlantStore,
  first: NewPlant[],
  cursor: Cursor,
  options: ListOptions,
): AsyncIterable<NewPlant[]> {
  try {
    let page: NewPlant[] | undefined = first;
    for (;;) {
      if (page.length > 0) yield page;
      page = undefined;
      if (cursor.done) break;
      page = await nextPage(store, options, cursor);
    }
  } finally {
    await store.close();
  }
}

/** The filter of the flags: --tag, --search. */
function filterOf({ tag, search }: ListOptions): PlantFilter {
  return defined({ tag, search });
}
