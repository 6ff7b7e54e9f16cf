import { describe, expect, it } from 'vitest';
import type { NewPlant } from '../../src/core/schemas.js';
import type { AddOutcome } from '../../src/core/store.js';
import { BatchingStore } from '../../src/server/batching-store.js';
import { MemoryStore } from '../helpers/memory-store.js';
import { DelegatingStore, storeWith } from '../helpers/stores.js';

const plant = (id: number): NewPlant => ({ id: BigInt(id), name: `p${id}` });

/** A store whose writes finish only when the test says so, recording each inner call. */
class GatedStore extends DelegatingStore {
  readonly calls: NewPlant[][] = [];
  private readonly memory = new MemoryStore();
  private gates: { open: () => void; fail: (error: unknown) => void }[] = [];

  override addAll(plants: readonly NewPlant[]): Promise<AddOutcome[]> {
    this.calls.push([...plants]);
    return new Promise((resolve, reject) => {
      this.gates.push({ open: () => resolve(this.memory.addAll(plants)), fail: reject });
    });
  }

  open(): void {
    this.gates.shift()?.open();
  }

  fail(error: unknown): void {
    this.gates.shift()?.fail(error);
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchingStore', () => {
  it('starts the first call at once, then writes everything that arrived meanwhile in one inner call', async () => {
    const inner = new GatedStore();
    const store = new BatchingStore(inner);
    const first = store.addAll([plant(1)]);
    expect(inner.calls).toEqual([[plant(1)]]);
    const second = store.addAll([plant(2), plant(3)]);
    const third = store.addAll([plant(4)]);
    const fourth = store.addAll([plant(2)]);
    expect(inner.calls).toHaveLength(1);
    inner.open();
    expect(await first).toEqual(['added']);
    await tick();
    expect(inner.calls).toEqual([[plant(1)], [plant(2), plant(3), plant(4), plant(2)]]);
    inner.open();
    // Each caller gets exactly its own slice, in order; the duplicate within the batch loses.
    expect(await second).toEqual(['added', 'added']);
    expect(await third).toEqual(['added']);
    expect(await fourth).toEqual(['duplicate']);
  });

  it('answers a caller only after its plants are written', async () => {
    const inner = new GatedStore();
    const store = new BatchingStore(inner);
    let settled = false;
    void store.addAll([plant(1)]).then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    inner.open();
    await tick();
    expect(settled).toBe(true);
  });

  it('gives every caller of a failed batch the failure, and goes on with the next batch', async () => {
    const inner = new GatedStore();
    const store = new BatchingStore(inner);
    const first = store.addAll([plant(1)]);
    const second = store.addAll([plant(2)]);
    const third = store.addAll([plant(3)]);
    inner.open();
    await first;
    await tick();
    const failure = new Error('disk full');
    inner.fail(failure);
    await expect(second).rejects.toBe(failure);
    await expect(third).rejects.toBe(failure);
    const fourth = store.addAll([plant(4)]);
    inner.open();
    expect(await fourth).toEqual(['added']);
  });

  it('refuses outcomes that do not match the plants, rather than hand out wrong slices', async () => {
    const store = new BatchingStore(storeWith({ addAll: async () => ['added'] }));
    await expect(store.addAll([plant(1), plant(2)])).rejects.toThrow(/1 outcomes for 2 plants/);
  });

  it('drain resolves once nothing is waiting or being written', async () => {
    const inner = new GatedStore();
    const store = new BatchingStore(inner);
    await store.drain();
    const writes = [store.addAll([plant(1)]), store.addAll([plant(2)])];
    let drained = false;
    const draining = store.drain().then(() => (drained = true));
    inner.open();
    await tick();
    expect(drained).toBe(false);
    inner.open();
    await draining;
    await Promise.all(writes);
    expect(inner.calls).toHaveLength(2);
  });

  it('answers an empty call without touching the inner store', async () => {
    const inner = new GatedStore();
    expect(await new BatchingStore(inner).addAll([])).toEqual([]);
    expect(inner.calls).toHaveLength(0);
  });

  it('lets exactly one of many concurrent adds of one id win', async () => {
    const store = new BatchingStore(new MemoryStore());
    const outcomes = (await Promise.all(Array.from({ length: 100 }, () => store.addAll([plant(7)])))).flat();
    expect(outcomes.filter((outcome) => outcome === 'added')).toHaveLength(1);
  });
  it(
    'keeps up to `writers` batches in flight (a database), batching what arrives while all are busy, and drains ' +
      'them all',
    async () => {
      const inner = new GatedStore();
      const store = new BatchingStore(inner, 2);
      const first = store.addAll([plant(1)]);
      const second = store.addAll([plant(2)]);
      const third = store.addAll([plant(3)]);
      const fourth = store.addAll([plant(4)]);
      expect(inner.calls).toEqual([[plant(1)], [plant(2)]]);
      let drained = false;
      const draining = store.drain().then(() => (drained = true));
      inner.open();
      expect(await first).toEqual(['added']);
      await tick();
      expect(inner.calls).toEqual([[plant(1)], [plant(2)], [plant(3), plant(4)]]);
      inner.open();
      inner.open();
      expect([await second, await third, await fourth]).toEqual([['added'], ['added'], ['added']]);
      await draining;
      expect(drained).toBe(true);
    },
  );
});
