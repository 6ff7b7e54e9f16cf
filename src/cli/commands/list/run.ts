import type { PlantField } from '../../../core/plant-fields.js';
import type { NewPlant } from '../../../core/schemas.js';
import type { PlantFilter, PlantStore } from '../../../core/store.js';
import type { CommandImplementation } from '../../command-implementation.js';
import { defined } from '../../command-spec.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import type { Target } from '../../target-flags.js';
import { openTargetStore, withTargetStore } from '../../target-store.js';
import { boundYoungGeneration, wouldRunAgain } from '../../young-generation.js';
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
}

export const implementation = {
  run,
  renderHuman,
  renderJson,
  exitCode,
} satisfies CommandImplementation<ListOptions, ListResult>;

/** Plants are read a page of this many at a time (the most a service page holds). */
const PAGE = 1_000;

/**
 * Pages a remote list reads before it writes any, where it would run again to bound V8's young
 * generation (see run). A list that is longer runs again: a long list allocates as fast as an
 * import, page after page, and on Node 24 its young generation grows with it. Reading the first
 * pages again costs it one more start; a list of up to this many pages (most in a shell loop)
 * pays nothing. Held pages are old by the time they are written: a list that runs bounded
 * already, or cannot run again, holds none.
 */
const HELD_PAGES = 10;

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
  const cursor: Cursor = { after: options.after === undefined ? undefined : idFlag('list', '--after', options.after), left: options.limit ?? Infinity, done: false };
  const filtered = cursor.after !== undefined || options.tag !== undefined || options.search !== undefined;
  const { store, where } = await openTargetStore(options.target, ctx);
  const held: NewPlant[][] = [];
  const holding = !options.target.local && wouldRunAgain(ctx) ? HELD_PAGES : 1;
  try {
    do held.push(await nextPage(store, options, cursor));
    while (!cursor.done && held.length < holding);
  } catch (error) {
    await store.close();
    throw error;
  }
  // Before anything is written: what runs again asks for the held pages again, which a read may.
  if (!options.target.local && !cursor.done) boundYoungGeneration(ctx, undefined);
  const { format, fields } = options;
  const none = filtered ? `no plants match in ${where}` : `no plants yet in ${where}`;
  return { pages: pagesOf(store, held, cursor, options), none, ...defined({ format, fields }), notWritten: [] };
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

/** The held pages, then page after page until the list is over; the store closed at the end. */
async function* pagesOf(store: PlantStore, held: NewPlant[][], cursor: Cursor, options: ListOptions): AsyncIterable<NewPlant[]> {
  try {
    for (let page = held.shift(); page !== undefined; page = held.shift()) if (page.length > 0) yield page;
    while (!cursor.done) {
      const page = await nextPage(store, options, cursor);
      if (page.length > 0) yield page;
    }
  } finally {
    await store.close();
  }
}

/** The filter of the flags: --tag, --search. */
function filterOf({ tag, search }: ListOptions): PlantFilter {
  return defined({ tag, search });
}
