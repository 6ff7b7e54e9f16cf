const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE = -MAX_SAFE;

/**
 * The key of an int64 id in a Map: the id as a number where a number holds it exactly, else the
 * bigint itself. One key per id (a number and a bigint are never the same key), and the ids that
 * stores hold are nearly all numbers' size: a Map hashes numbers much faster than bigints, which
 * a million-row import feels (a lookup for every row, in every batch).
 */
export type IdKey = number | bigint;

export function idKey(id: bigint): IdKey {
  return id >= MIN_SAFE && id <= MAX_SAFE ? Number(id) : id;
}

function idOfKey(key: IdKey): bigint {
  return typeof key === 'number' ? BigInt(key) : key;
}

/** A Map from int64 ids, keyed by idKey. */
export class IdMap<V> {
  private readonly map = new Map<IdKey, V>();

  get size(): number {
    return this.map.size;
  }

  get(id: bigint): V | undefined {
    return this.map.get(idKey(id));
  }

  has(id: bigint): boolean {
    return this.map.has(idKey(id));
  }

  set(id: bigint, value: V): this {
    this.map.set(idKey(id), value);
    return this;
  }

  /**
   * The ids, in the order they were first set. Written into the array one by one: BigInt64Array.from()
   * of an iterator first gathers every id as a BigInt in a list, which for a large journal was
   * most of the peak memory of a `list --local`.
   */
  ids(): BigInt64Array {
    const ids = new BigInt64Array(this.map.size);
    let i = 0;
    for (const key of this.map.keys()) ids[i++] = idOfKey(key);
    return ids;
  }
}

/** A Set of int64 ids, keyed by idKey. */
export class IdSet {
  private readonly set = new Set<IdKey>();

  has(id: bigint): boolean {
    return this.set.has(idKey(id));
  }

  add(id: bigint): this {
    this.set.add(idKey(id));
    return this;
  }

  /** Adds `id`: true if it was not there yet. */
  addNew(id: bigint): boolean {
    const key = idKey(id);
    if (this.set.has(key)) return false;
    this.set.add(key);
    return true;
  }
}
