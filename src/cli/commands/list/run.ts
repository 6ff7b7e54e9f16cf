import type { NewPlant } from '../../../core/schemas.js';
import type { PlantStore } from '../../../core/store.js';
import type { Context } from '../../context.js';
import { idFlag } from '../../id-flag.js';
import { openTargetStore } from '../../target-store.js';
import type { ListOptions } from './command.js';
import type { ListResult } from './render.js';

export { exitCode, renderHuman, renderJson } from './render.js';

/** Plants are read a page of this many at a time (the most a service page holds). */
const PAGE = 1_000;

export async function run(options: ListOptions, ctx: Context): Promise<ListResult> {
  const after = options.after === undefined ? undefined : idFlag('list', '--after', options.after);
  const { store, where } = await openTargetStore(options.target, ctx);
  const filtered = after !== undefined || options.tag !== undefined;
  return { pages: pagesOf(store, after, options), none: filtered ? `no plants match in ${where}` : `no plants yet in ${where}`, ...(options.format === undefined ? {} : { format: options.format }), notWritten: [] };
}

/** Page after page, each after the last id of the one before, until there are no more or the limit is reached; the store closed at the end. */
async function* pagesOf(store: PlantStore, first: bigint | undefined, options: ListOptions): AsyncIterable<NewPlant[]> {
  try {
    let after = first;
    for (let left = options.limit ?? Infinity; left > 0; ) {
      const limit = Math.min(PAGE, left);
      const page = await store.list({ limit, ...(after === undefined ? {} : { after }), ...(options.tag === undefined ? {} : { tag: options.tag }) });
      if (page.length > 0) yield page;
      if (page.length < limit) return;
      left -= page.length;
      after = (page[page.length - 1] as NewPlant).id;
    }
  } finally {
    await store.close();
  }
}
