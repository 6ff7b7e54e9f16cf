import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { untilStopped } from '../../src/import/rows.js';

const NEVER = new Promise<void>(() => undefined);

async function collect<T>(runs: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const run of runs) seen.push(run);
  return seen;
}

describe('untilStopped', () => {
  it('hands on every run while not stopped', async () => {
    async function* runs() {
      yield* [[1], [2], [3]];
    }
    expect(await collect(untilStopped(runs(), NEVER))).toEqual([[1], [2], [3]]);
  });

  it('ends at once when stopped while a read waits for input that never comes', async () => {
    let stop = () => undefined as void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    async function* runs() {
      yield [1];
      setTimeout(stop, 10);
      await NEVER;
      yield [2];
    }
    expect(await collect(untilStopped(runs(), stopped))).toEqual([[1]]);
  });

  it('keeps no run it has handed on while the stop is pending (an import of millions of rows)', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const handedOn: WeakRef<number[]>[] = [];
    async function* runs() {
      for (let i = 0; i < 50; i += 1) {
        const run = new Array<number>(10_000).fill(i);
        handedOn.push(new WeakRef(run));
        yield run;
      }
    }
    expect(await collect(untilStopped(runs(), NEVER)).then((seen) => seen.length)).toBe(50);
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    const kept = handedOn.flatMap((ref, i) => (ref.deref() === undefined ? [] : [i]));
    expect(kept).toEqual([]);
  });
});
