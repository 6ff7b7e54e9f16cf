import { isPlantsError } from '../../core/errors.js';
import { LineCutter, readLineAt, readLinesSync, type ReadAt } from '../../fs/lines.js';
import { storeCorruptError, storeIoError } from '../store-errors.js';
import { lineId, lineText, MAX_LINE_BYTES, plantLines } from './database-file.js';
import { EntriesBuilder, type SortedEntries } from './sorted-entries.js';

/**
 * The bytes of a database file in our layout: the file itself, open, where a wal-index vouches for
 * it; or the canonical bytes a file read whole was normalised to (normalise.ts), held in memory.
 */
export interface DatabaseBytes {
  read: ReadAt;
  size: number;
  close(): void;
}

/** A line of the database file: `bytes[from, to)`, which starts at byte `start` of the file. */
export interface LineRead {
  bytes: Buffer;
  from: number;
  to: number;
  start: number;
}

/** Each probe of a search reads this much, which holds the next line nearly always (a longer one is read on). */
export const PROBE_BYTES = 1024;
/** Where a search reads a whole stretch of lines rather than halving it again; a run's first block. */
export const SCAN_BYTES = 4 * 1024;
/** What textAt reads at a time. */
const BLOCK_BYTES = 64 * 1024;
/**
 * Blocks up to this size are read to go through lines in order (a page, a checkpoint): the first
 * of SCAN_BYTES, each next one twice the last, so that a page of a few plants cuts the lines of a
 * few KiB, not of the first 64 KiB.
 */
const RUN_BYTES = 64 * 1024;

/**
 * The lines of a database file in our layout, by where they start: the reads a search, a page and
 * a checkpoint make of it, each a few KiB. Every read that fails is `store_io`; bytes that are not
 * our layout where a line should be, `store_corrupt`.
 */
export class DatabaseLines {
  /** The block textAt and blockHolds read last, and where it starts in the file. */
  block = Buffer.alloc(0);
  blockStart = 0;
  /** Where the plants' lines begin and end. */
  readonly from: number;
  readonly to: number;

  constructor(
    private readonly bytes: DatabaseBytes,
    readonly path: string,
  ) {
    ({ from: this.from, to: this.to } = plantLines(bytes.size));
  }

  /**
   * The lines from byte `start` to byte `end`, read a block at a time (growing to RUN_BYTES), each
   * valid until the next.
   */
  *run(start: number, end: number): Generator<LineRead> {
    const lines: LineRead[] = [];
    let block = Buffer.allocUnsafe(Math.max(1, Math.min(SCAN_BYTES, end - start)));
    let chunk = block;
    const cutter = new LineCutter(
      MAX_LINE_BYTES,
      (bytes, from, to, lineStart) => {
        if (bytes === undefined) {
          throw storeCorruptError(this.path, `the line at byte ${lineStart} is longer than any plant`);
        }
        // A line begun in the block before is in the cutter's own buffer, which the next line reuses.
        const own = bytes === chunk;
        const kept = own ? bytes : Buffer.from(bytes.subarray(from, to));
        lines.push(
          own ? { bytes, from, to, start: lineStart } : { bytes: kept, from: 0, to: to - from, start: lineStart },
        );
      },
      start,
    );
    for (let position = start; position < end;) {
      const got = this.reading(() => this.bytes.read(block, 0, Math.min(block.length, end - position), position));
      if (got === 0) throw storeIoError(this.path, 'read', new Error('the store file ended before its last plant'));
      position += got;
      chunk = got === block.length ? block : block.subarray(0, got);
      cutter.push(chunk);
      yield* lines.splice(0);
      if (block.length < RUN_BYTES && position < end) {
        block = Buffer.allocUnsafe(Math.min(RUN_BYTES, block.length * 2, end - position));
      }
    }
  }

  /** The first line that starts after byte `at` (past the line feed at or after it), and its id. */
  probe(at: number): { start: number; id: number | bigint } {
    const block = Buffer.allocUnsafe(PROBE_BYTES);
    const got = this.reading(() => this.bytes.read(block, 0, Math.min(PROBE_BYTES, this.to - at), at));
    const feed = block.subarray(0, got).indexOf(10);
    // The line that holds `at` runs past the block: where it ends is read on.
    const start = at + (feed !== -1 ? feed : this.lineAt(at).length) + 1;
    if (start >= this.to) return { start: this.to, id: 0 };
    const end = feed === -1 ? -1 : block.subarray(0, got).indexOf(10, feed + 1);
    if (end !== -1) return { start, id: this.idOf(block, feed + 1, end) };
    const bytes = this.lineAt(start);
    return { start, id: this.idOf(bytes, 0, bytes.length) };
  }

  lineAt(start: number): Buffer {
    const bytes = this.reading(() => readLineAt(this.bytes.read, start, MAX_LINE_BYTES, PROBE_BYTES));
    if (bytes === undefined) throw storeCorruptError(this.path, `no whole line at byte ${start}`);
    return bytes;
  }

  /**
   * The canonical text of the line at `start`, once the ids are loaded (many lookups: an import's
   * batch, a checkpoint): read a block of BLOCK_BYTES at a time and kept, so that lookups in id
   * order read the file once, not a line a read.
   */
  textAt(start: number): string {
    const offset = start - this.blockStart;
    let end = offset >= 0 && offset < this.block.length ? this.block.indexOf(10, offset) : -1;
    if (end === -1) {
      this.readBlock(start);
      end = this.block.indexOf(10);
    }
    // A line longer than a block (up to MAX_LINE_BYTES): read on its own.
    const bytes = end === -1 ? this.lineAt(start) : this.block;
    return end === -1 ? lineText(bytes, 0, bytes.length) : lineText(bytes, start - this.blockStart, end);
  }

  /**
   * Whether the block kept holds the line from `start` to its line feed at `feed`, read anew from
   * `start` where it does not hold those bytes: false for a line longer than a block, or where
   * `feed` is no line feed (a file that does not match its entries).
   */
  blockHolds(start: number, feed: number): boolean {
    if (start < this.blockStart || feed >= this.blockStart + this.block.length) this.readBlock(start);
    return feed > start && feed < this.blockStart + this.block.length && this.block[feed - this.blockStart] === 10;
  }

  /** Each plant's id and where its line starts, read once, a block at a time: for a process that looks up many. */
  ids(): SortedEntries {
    const entries = new EntriesBuilder();
    this.reading(() =>
      readLinesSync(this.bytes.read, this.from, this.to, MAX_LINE_BYTES, (bytes, from, to, start) => {
        const id = bytes === undefined ? undefined : lineId(bytes, from, to);
        if (id === undefined) throw storeCorruptError(this.path, `the line at byte ${start} is not a plant of ours`);
        entries.push(id, start);
      }),
    );
    return entries.build();
  }

  idOf(bytes: Buffer, from: number, to: number): number | bigint {
    const id = lineId(bytes, from, to);
    if (id !== undefined) return id;
    const start = bytes.toString('utf8', from, Math.min(to, from + 60));
    throw storeCorruptError(this.path, `a line is not a plant of ours: ${start}`);
  }

  close(): void {
    this.bytes.close();
  }

  private readBlock(start: number): void {
    const size = Math.min(BLOCK_BYTES, this.to - start);
    const block = Buffer.allocUnsafe(size);
    const got = this.reading(() => this.bytes.read(block, 0, size, start));
    this.block = block.subarray(0, got);
    this.blockStart = start;
  }

  private reading<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (isPlantsError(error)) throw error;
      throw storeIoError(this.path, 'read', error);
    }
  }
}
