import { IdMap, IdSet } from './id-map.js';
import type { NewPlant } from './schemas.js';
import type { AddOutcome, DeleteOutcome, Expectation, Patch, PatchOutcome, Put, PutOutcome, Removal } from './store.js';

/**
 * What each write of a call does, decided the one way every store decides it, so that they agree:
 * in order, each on the store as the ones before it in the same call left it. A store hands in
 * what it holds (`has`, `get`), and writes what comes out.
 */

/** The ETag of a plant's state (core/etag.ts), where a write's precondition names ETags: loaded only then. */
export type EtagOf = (plant: NewPlant) => string;

/** The outcome of each add: a plant whose id is there, or was added earlier in the call, is a duplicate. */
export function decideAdds(plants: readonly NewPlant[], has: (id: bigint) => boolean): AddOutcome[] {
  const added = new IdSet();
  return plants.map(({ id }) => {
    if (added.has(id) || has(id)) return 'duplicate';
    added.add(id);
    return 'added';
  });
}

/** The id of a delete's target. */
export function targetId(target: bigint | Removal): bigint {
  return typeof target === 'bigint' ? target : target.id;
}

/** etagOf (core/etag.ts), loaded where a write of a call names ETags (node:crypto costs start-up), else undefined. */
export async function etagOfFor(writes: readonly (bigint | { expect?: Expectation })[]): Promise<EtagOf | undefined> {
  const namesEtags = writes.some((write) => typeof write !== 'bigint' && typeof write.expect === 'object');
  return namesEtags ? (await import('./etag.js')).etagOf : undefined;
}

/** Whether `current` (undefined: no such plant) meets the precondition `expect`. */
export function meets(
  current: NewPlant | undefined,
  expect: Expectation | undefined,
  etagOf: EtagOf | undefined,
): boolean {
  if (expect === undefined) return true;
  if (expect === 'absent') return current === undefined;
  if (current === undefined) return false;
  if (expect === 'present') return true;
  if (etagOf === undefined) throw new Error('an ETag precondition was decided without etagOf');
  return expect.etags.includes(etagOf(current));
}

/** The plants as a call's writes leave them: the store's, with the writes decided so far over them. */
class Pending {
  private readonly plants = new IdMap<NewPlant | null>();

  constructor(private readonly get: (id: bigint) => NewPlant | undefined) {}

  now(id: bigint): NewPlant | undefined {
    const pending = this.plants.get(id);
    return pending === undefined ? this.get(id) : (pending ?? undefined);
  }

  /** Whether a write decided so far in the call is of this id. */
  wrote(id: bigint): boolean {
    return this.plants.has(id);
  }

  set(id: bigint, plant: NewPlant | null): void {
    this.plants.set(id, plant);
  }
}

/**
 * The outcome of each delete: one whose plant does not meet its precondition is a mismatch (also
 * where there is none: If-Match fails on no plant); an id not there, or deleted earlier in the
 * call, is absent. `get` is asked only for an id held to a precondition: reading a plant costs
 * more than knowing it is there.
 */
export function decideDeletes(
  targets: readonly (bigint | Removal)[],
  has: (id: bigint) => boolean,
  get: (id: bigint) => NewPlant | undefined,
  etagOf?: EtagOf,
): DeleteOutcome[] {
  const deleted = new IdSet();
  return targets.map((target) => {
    const id = targetId(target);
    const there = !deleted.has(id) && has(id);
    if (typeof target !== 'bigint' && !meets(there ? get(id) : undefined, target.expect, etagOf)) return 'mismatch';
    if (!there) return 'absent';
    deleted.add(id);
    return 'deleted';
  });
}

/**
 * How the plant a store holds of a put's id compares with the put's plant: none, the same, or
 * another. A store that can tell without reading the stored plant (the file store compares
 * canonical lines) hands this to decidePuts with `get`; `i` is the put's position in the call.
 */
export type Holds = (i: number) => 'absent' | 'same' | 'other';

/**
 * The outcome of each put, and the plants to write, in order (an id twice: the later one wins).
 * With `holds`, a put whose precondition names no ETag, on an id no earlier put of the call wrote,
 * is decided by it; any other by the plant `get` reads.
 */
export function decidePuts(
  puts: readonly Put[],
  get: (id: bigint) => NewPlant | undefined,
  etagOf?: EtagOf,
  holds?: Holds,
): { outcomes: PutOutcome[]; writes: NewPlant[] } {
  const pending = new Pending(get);
  const writes: NewPlant[] = [];
  // While the ids come in ascending order (an import of a sorted file), no put is of an id an
  // earlier one wrote: the writes enter `pending` only once an id comes out of order.
  let ascending = true;
  let last: bigint | undefined;
  const write = (plant: NewPlant) => {
    if (!ascending) pending.set(plant.id, plant);
    writes.push(plant);
  };
  const outcomes = puts.map(({ plant, expect }, i): PutOutcome => {
    if (ascending && last !== undefined && plant.id <= last) {
      ascending = false;
      for (const written of writes) pending.set(written.id, written);
    }
    last = plant.id;
    if (holds !== undefined && typeof expect !== 'object' && (ascending || !pending.wrote(plant.id))) {
      const held = holds(i);
      if (expect === (held === 'absent' ? 'present' : 'absent')) return 'mismatch';
      if (held === 'same') return 'unchanged';
      write(plant);
      return held === 'absent' ? 'created' : 'updated';
    }
    const before = pending.now(plant.id);
    if (!meets(before, expect, etagOf)) return 'mismatch';
    if (before !== undefined && samePlant(before, plant)) return 'unchanged';
    write(plant);
    return before === undefined ? 'created' : 'updated';
  });
  return { outcomes, writes };
}

/** The outcome of each patch, and the plants to write, in order (an id twice: the later one wins). */
export function decidePatches(
  patches: readonly Patch[],
  get: (id: bigint) => NewPlant | undefined,
  etagOf?: EtagOf,
): { outcomes: PatchOutcome[]; writes: NewPlant[] } {
  const pending = new Pending(get);
  const writes: NewPlant[] = [];
  const outcomes = patches.map((patch): PatchOutcome => {
    const before = pending.now(patch.id);
    // A precondition comes first (If-Match on no plant fails: 412), then the plant to patch (404).
    if (!meets(before, patch.expect, etagOf)) return 'mismatch';
    if (before === undefined) return 'absent';
    const plant = patched(before, patch);
    if (samePlant(before, plant)) return { plant: before, changed: false };
    pending.set(plant.id, plant);
    writes.push(plant);
    return { plant, changed: true };
  });
  return { outcomes, writes };
}

/** A plant with a patch applied: its name, and its tag (none where the patch says null), as the patch gives them. */
export function patched(plant: NewPlant, patch: Pick<Patch, 'name' | 'tag'>): NewPlant {
  const name = patch.name ?? plant.name;
  const tag = patch.tag === undefined ? plant.tag : (patch.tag ?? undefined);
  return tag === undefined ? { id: plant.id, name } : { id: plant.id, name, tag };
}

export function samePlant(a: NewPlant, b: NewPlant): boolean {
  return a.id === b.id && a.name === b.name && a.tag === b.tag;
}
