import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlantsError } from '../../src/core/errors.js';
import { StoreOutage, watchWrites } from '../../src/server/store-outage.js';
import { MemoryStore } from '../helpers/memory-store.js';

const FULL = new PlantsError(
  'store_io',
  'could not append to the store /s.json.journal: no space left on device (ENOSPC)',
);

/** An outage's log; `probe` is the store's (by default, one that finds the disk still full). */
function outageLog(probe: () => Promise<void> = () => Promise.reject(FULL)) {
  const reported: unknown[] = [];
  const said: string[] = [];
  const outage = new StoreOutage(
    (error) => reported.push(error),
    (line) => said.push(line),
    probe,
  );
  return { outage, reported, said };
}

const STARTED =
  'plants serve: answering 503 until the store takes a write again; the requests refused meanwhile are ' +
  'counted, not logged';

// Time is the fake timers' own: an outage ends a second after its last refusal, if a write went through.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the log of a store that cannot be used', () => {
  it('says a full disk that takes a small write now and then once, and once more when it takes writes again', () => {
    const { outage, reported, said } = outageLog();
    // Writes that fit in the room left in the journal's last block go through between refusals.
    for (let i = 0; i < 50; i += 1) {
      outage.failed(FULL);
      vi.advanceTimersByTime(40);
      outage.wrote();
      vi.advanceTimersByTime(40);
      outage.failed(FULL);
    }
    expect(reported).toEqual([FULL]);
    expect(said).toEqual([STARTED]);
    expect(outage.isOut).toBe(true);
    // Room again: writes go through, and nothing is refused for a second after the last refusal.
    outage.wrote();
    vi.advanceTimersByTime(999);
    outage.wrote();
    expect(said).toEqual([STARTED]);
    vi.advanceTimersByTime(1);
    expect(said).toEqual([
      STARTED,
      'plants serve: the store takes writes again; 100 requests were refused with 503 meanwhile',
    ]);
    expect(outage.isOut).toBe(false);
  });

  it('ends an outage only by a write or a probe that succeeds: a minute of failed probes is still out', async () => {
    const { outage, said } = outageLog();
    outage.failed(FULL);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(outage.isOut).toBe(true);
    outage.wrote();
    expect(said.at(-1)).toBe('plants serve: the store takes writes again; 1 request was refused with 503 meanwhile');
  });

  it('probes the store while it is out, one probe at a time: one that succeeds ends it with no request', async () => {
    let probes = 0;
    let full = true;
    let finish = () => undefined as void;
    const { outage, said } = outageLog(async () => {
      probes += 1;
      // The first probe waits as long as a lock may take; none starts meanwhile.
      if (probes === 1) await new Promise<void>((resolve) => (finish = resolve));
      if (full) throw FULL;
    });
    outage.failed(FULL);
    expect(probes).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(probes).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(probes).toBe(3);
    expect(outage.isOut).toBe(true);
    // Room again, and no request comes (a load balancer sends none to an instance that is not ready).
    full = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(outage.isOut).toBe(false);
    expect(said.at(-1)).toBe('plants serve: the store takes writes again; 1 request was refused with 503 meanwhile');
    // No probe once it is over.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(probes).toBe(4);
  });

  it('reports the first refused request, counts the rest, and says so once a write succeeds', () => {
    const { outage, reported, said } = outageLog();
    outage.wrote();
    expect(said).toEqual([]);
    for (let i = 0; i < 1000; i += 1) outage.failed(FULL);
    expect(reported).toEqual([FULL]);
    expect(said).toEqual([
      'plants serve: answering 503 until the store takes a write again; the requests refused meanwhile are ' +
        'counted, not logged',
    ]);
    outage.wrote();
    outage.wrote();
    vi.advanceTimersByTime(1_000);
    expect(said.slice(1)).toEqual([
      'plants serve: the store takes writes again; 1000 requests were refused with 503 meanwhile',
    ]);
    // A new outage is reported anew.
    outage.failed(FULL);
    outage.wrote();
    vi.advanceTimersByTime(1_000);
    expect(reported).toEqual([FULL, FULL]);
    expect(said.at(-1)).toBe('plants serve: the store takes writes again; 1 request was refused with 503 meanwhile');
  });

  it(
    'reports a failure of another cause during an outage, and accounts for an outage still on when the server ' +
      'stops',
    () => {
      const { outage, reported, said } = outageLog();
      const locked = new PlantsError('store_locked', 'the store /s.json is in use by another process');
      outage.failed(locked);
      outage.failed(locked);
      outage.failed(FULL);
      outage.failed(FULL);
      outage.failed(locked);
      expect(reported).toEqual([locked, FULL, locked]);
      outage.stopped();
      expect(said.at(-1)).toBe('plants serve: stopping; 5 requests were refused with 503 meanwhile');
      outage.stopped();
      expect(said).toHaveLength(2);
    },
  );

  it('reports every failure that is not the store being unusable: bugs, and a write whose effect is unknown', () => {
    const { outage, reported, said } = outageLog();
    const unknown = new PlantsError('store_io', 'could not fsync the directory of the store /s.json: EIO', {
      effect: 'unknown',
    });
    const bug = new TypeError('boom');
    outage.failed(FULL);
    for (const error of [unknown, bug, unknown, bug]) outage.failed(error);
    expect(reported).toEqual([FULL, unknown, bug, unknown, bug]);
    outage.wrote();
    vi.advanceTimersByTime(1_000);
    expect(said.at(-1)).toBe('plants serve: the store takes writes again; 1 request was refused with 503 meanwhile');
  });

  it('counts as a write only a call that added or deleted a plant', async () => {
    let written = 0;
    const store = watchWrites(new MemoryStore(), () => (written += 1));
    expect(await store.addAll([{ id: 1n, name: 'a' }])).toEqual(['added']);
    expect(written).toBe(1);
    expect(await store.addAll([{ id: 1n, name: 'again' }])).toEqual(['duplicate']);
    expect(await store.deleteAll([2n])).toEqual(['absent']);
    expect(await store.get(1n)).toEqual({ id: 1n, name: 'a' });
    expect(written).toBe(1);
    expect(await store.deleteAll([1n])).toEqual(['deleted']);
    expect(written).toBe(2);
    await store.close();
  });
});
