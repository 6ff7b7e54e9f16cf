import fc from 'fast-check';
import { openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_FS } from '../../src/fs/file-system.js';
import { LineCutter, readAtOf, readLineAt, readLinesSync } from '../../src/fs/lines.js';
import { tempDir } from '../helpers/temp.js';

/**
 * What a cutter hands on for `input` cut into chunks of these sizes: each line (or null: too long) and where it starts.
 */
function cut(
  input: Buffer,
  sizes: number[],
  maxBytes: number,
  ended = true,
): { lines: [string | null, number][]; whole: number } {
  const lines: [string | null, number][] = [];
  const cutter = new LineCutter(
    maxBytes,
    (bytes, from, to, start) =>
      void lines.push([bytes === undefined ? null : bytes.toString('latin1', from, to), start]),
  );
  let at = 0;
  for (const size of sizes) {
    if (at >= input.length) break;
    cutter.push(input.subarray(at, at + size));
    at += size;
  }
  if (at < input.length) cutter.push(input.subarray(at));
  if (ended) cutter.end();
  return { lines, whole: cutter.wholeBytes };
}

/** The same, done the obvious way: split at line feeds. */
function split(input: Buffer, maxBytes: number, ended = true): { lines: [string | null, number][]; whole: number } {
  const text = input.toString('latin1');
  const parts = text.split('\n');
  const last = parts.pop() as string;
  const lines: [string | null, number][] = [];
  let start = 0;
  for (const part of parts) {
    lines.push([part.length > maxBytes ? null : part, start]);
    start += part.length + 1;
  }
  if (ended && last !== '') lines.push([last.length > maxBytes ? null : last, start]);
  return { lines, whole: ended && last !== '' ? text.length : start };
}

describe('the line reader', () => {
  it('cuts any input, in chunks of any sizes, into the lines a split makes, where they start, long ones named', () => {
    const input = fc
      .array(fc.oneof(fc.constant('\n'), fc.string({ unit: fc.constantFrom('a', 'b', 'é'), maxLength: 30 })), {
        maxLength: 40,
      })
      .map((parts) => Buffer.from(parts.join(''), 'latin1'));
    fc.assert(
      fc.property(
        input,
        fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 1, max: 25 }),
        fc.boolean(),
        (bytes, sizes, maxBytes, ended) => {
          expect(cut(bytes, sizes, maxBytes, ended)).toEqual(split(bytes, maxBytes, ended));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps no more of a line than its limit, however long (a line of 100 MB)', () => {
    const lines: (number | null)[] = [];
    const cutter = new LineCutter(1024, (bytes, from, to) => void lines.push(bytes === undefined ? null : to - from));
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 100; i += 1) cutter.push(chunk);
    cutter.push(Buffer.from('\nshort\n'));
    expect(lines).toEqual([null, 5]);
    expect(cutter.wholeBytes).toBe(100 * 1024 * 1024 + 7);
  });

  it('stops when asked, cutting nothing more', () => {
    const seen: string[] = [];
    const cutter = new LineCutter(100, (bytes, from, to) => {
      seen.push((bytes as Buffer).toString('utf8', from, to));
      return seen.length < 2;
    });
    expect(cutter.push(Buffer.from('a\nb\nc\nd\n'))).toBe(false);
    expect(seen).toEqual(['a', 'b']);
  });

  it('reads a file’s lines from a byte on, a block at a time, leaving a torn tail', async () => {
    const path = join(await tempDir(), 'lines');
    const lines = Array.from({ length: 30_000 }, (_, i) => `line ${i} ${'x'.repeat(i % 90)}`);
    writeFileSync(path, `${lines.join('\n')}\ntorn`);
    const fd = openSync(path, 'r');
    const read: string[] = [];
    const size = Buffer.byteLength(`${lines.join('\n')}\ntorn`);
    const whole = readLinesSync(
      readAtOf(NODE_FS, fd),
      0,
      size,
      1024,
      (bytes, from, to) => void read.push((bytes as Buffer).toString('utf8', from, to)),
    );
    expect(read).toEqual(lines);
    expect(whole).toBe(size - 4);
    // From a line's start: the lines after it.
    const from = Buffer.byteLength(`${lines.slice(0, 100).join('\n')}\n`);
    const after: string[] = [];
    readLinesSync(
      readAtOf(NODE_FS, fd),
      from,
      size,
      1024,
      (bytes, lineFrom, to) => void after.push((bytes as Buffer).toString('utf8', lineFrom, to)),
    );
    expect(after).toEqual(lines.slice(100));
    expect(readLineAt(readAtOf(NODE_FS, fd), from, 1024)?.toString()).toBe(lines[100]);
    // A line longer than the limit, or one not ended, is none.
    expect(readLineAt(readAtOf(NODE_FS, fd), from, 5)).toBeUndefined();
    expect(readLineAt(readAtOf(NODE_FS, fd), size - 4, 1024)).toBeUndefined();
  });
});
