import { isPlantsError } from '../../core/errors.js';
import type { FileSystem } from '../../fs/file-system.js';
import { LineCutter, readLineAt } from '../../fs/lines.js';
import { find, SortedEntries } from './sorted-entries.js';
import { storeCorruptError, storeIoError } from '../store-errors.js';
import { INDENT, lineId, lineText, MAX_LINE_BYTES, plantLines } from './database-file.js';
import { scanStoreFile } from './store-file-scan.js';

/** A plant's line as a snapshot reads it from the store file: its id, and its canonical text. */
export interface StoreLine {
  id: bigint;
  line: string;
}

/** What a store file holds of an id, against a line of a plant of that id (StoreFileView.holds). */
export type Held = 'absent' | 'same' | 'other' | 'foreign';

/** How a stored line compares with `line` (of the same id): both canonical, so equal text is the same plant. */
export function heldAs(stored: string | undefined, line: string): Held {
  if (stored === undefined) return 'absent';
  if (stored === line) return 'same';
  // Both start `{"id":<id>,`.
  const idEnd = line.indexOf(',') + 1;
  return stored.length > idEnd && stored.startsWith(line.slice(0, idEnd)) ? 'other' : 'foreign';
}

/** The plants of a store file, as a snapshot reads them: never changed once made. */
export interface StoreFileView {
  /** How many plants it holds. */
  readonly plants: number;
  /**
   * Whether it is in the layout plants writes, every plant canonical and in id order: kept as it
   * is. Any other (edited by hand, or written by an older plants) is rewritten at the next write.
   */
  readonly canonical: boolean;
  /** The canonical line of the plant with this id, if the file has one. */
  lineOf(id: bigint): string | undefined;
  /**
   * How the plant with this id compares with the canonical line `line` of a plant of that id:
   * none, the same line, another, or a line of another id (a file that does not match its index).
   */
  holds(id: bigint, line: string): Held;
  /** Whether the file has a plant with this id. */
  has(id: bigint): boolean;
  /** The plants from the first whose id is above `after` (all, if undefined), in id order, as they are read. */
  linesAfter(after: bigint | undefined): Iterable<StoreLine>;
  close(): void;
}

/** Where a search reads a whole stretch of lines rather than halving it again. */
const SCAN_BYTES = 4 * 1024;
/** Each probe of a search reads this much, which holds the next line nearly always (a longer one is read on). */
const PROBE_BYTES = 1024;
/** What textAt reads at a time. */
const BLOCK_BYTES = 64 * 1024;
/**
 * Blocks up to this size are read to go through lines in order (a page, a fold): the first of
 * SCAN_BYTES, each next one twice the last, so that a page of a few plants cuts the lines of a few
 * KiB, not of the first 64 KiB.
 */
const RUN_BYTES = 64 * 1024;

/**
 * A store file in our layout, open as `fd`, read only where asked: a plant by id or a page is
 * found by halving the file's bytes (its lines are in id order), a few reads of a few KiB each,
 * whatever its size. Once asked for more plants than a read of all its ids would cost (a server,
 * an import), it reads them, once, and searches them in memory.
 */
export class FileView implements StoreFileView {
  readonly canonical = true;
  /** The block textAt read last, and where it starts in the file. */
  private block = Buffer.alloc(0);
  private blockStart = 0;
  private readonly from: number;
  private readonly to: number;
  private lookups = 0;
  /** Where the plant `holds` found last is among the entries. */
  private held = -1;

  constructor(
    private readonly fs: FileSystem,
    private readonly fd: number,
    private readonly path: string,
    private readonly size: number,
    readonly plants: number,
    /** Each plant's id and where its line starts, when read already. */
    private entries?: SortedEntries,
  ) {
    ({ from: this.from, to: this.to } = plantLines(size));
  }

  has(id: bigint): boolean {
    const entries = this.searched();
    return entries !== undefined ? find(entries, id) !== -1 : this.halvingTo(id) !== undefined;
  }

  lineOf(id: bigint): string | undefined {
    const entries = this.searched();
    if (entries !== undefined) {
      const position = find(entries, id);
      return position === -1 ? undefined : this.textAt(entries.valueAt(position));
    }
    return this.halvingTo(id);
  }

  holds(id: bigint, line: string): Held {
    const entries = this.searched();
    if (entries === undefined) return heldAs(this.halvingTo(id), line);
    // An import in id order asks for the plant after the one it asked for last: looked at first.
    const next = this.held + 1;
    const position = next < entries.size && entries.idAt(next) === id ? next : find(entries, id);
    if (position === -1) return 'absent';
    this.held = position;
    const start = entries.valueAt(position);
    // The line's feed is right before where the next line starts (or the lines end): none looked for.
    const feed = (position + 1 < entries.size ? entries.valueAt(position + 1) : this.to) - 1;
    if (!this.blockHolds(start, feed)) return heldAs(this.textAt(start), line);
    const end = feed - this.blockStart;
    // Compared on the block's bytes, without making a string of the stored line (an update import asks for each of its rows).
    return sameBytes(this.block, start - this.blockStart + INDENT.length, this.block[end - 1] === 0x2c ? end - 1 : end, line) ?? heldAs(this.textAt(start), line);
  }

  /** The line of the plant with this id, found by halving the file. */
  private halvingTo(id: bigint): string | undefined {
    const start = this.firstAbove(id, true);
    if (start >= this.to) return undefined;
    const bytes = this.lineAt(start);
    return sameId(this.idOf(bytes, 0, bytes.length), id) ? lineText(bytes, 0, bytes.length) : undefined;
  }

  *linesAfter(after: bigint | undefined): Iterable<StoreLine> {
    const entries = this.entries;
    let start = this.from;
    if (after !== undefined) start = entries === undefined ? this.firstAbove(after, false) : entries.after(after) < entries.size ? entries.valueAt(entries.after(after)) : this.to;
    for (const { bytes, from, to } of this.run(start, this.to)) {
      yield { id: BigInt(this.idOf(bytes, from, to)), line: lineText(bytes, from, to) };
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.fs.closeSync(this.fd);
  }

  private closed = false;

  /** The ids in memory, read now if this file has been asked for more plants than that costs. */
  private searched(): SortedEntries | undefined {
    this.lookups += 1;
    if (this.entries === undefined && this.lookups * 1000 > this.plants) this.entries = scanStoreFile(this.fs, this.fd, this.path, this.size, false) as SortedEntries;
    return this.entries;
  }

  /**
   * Where the first line with an id above `target` (at or above it, if `inclusive`) starts: the
   * end of the lines if there is none. Probes the middle of what is left, by bytes: the first line
   * that starts after it. `limit` is below the end where no line starts between it and `high`.
   */
  private firstAbove(target: bigint, inclusive: boolean): number {
    const above = (id: number | bigint) => (inclusive ? id >= target : id > target);
    let low = this.from;
    let high = this.to;
    let limit = high;
    while (limit - low > SCAN_BYTES) {
      const middle = low + Math.floor((limit - low) / 2);
      const probe = this.probe(middle);
      if (probe.start >= limit) limit = middle;
      else if (above(probe.id)) high = limit = probe.start;
      else low = probe.start;
    }
    for (const { bytes, from, to, start } of this.run(low, high)) if (above(this.idOf(bytes, from, to))) return start;
    return high;
  }

  /** The first line that starts after byte `at` (past the line feed at or after it), and its id. */
  private probe(at: number): { start: number; id: number | bigint } {
    const block = Buffer.allocUnsafe(PROBE_BYTES);
    const got = this.reading(() => this.fs.readSync(this.fd, block, 0, Math.min(PROBE_BYTES, this.to - at), at));
    const feed = block.subarray(0, got).indexOf(10);
    // The line that holds `at` runs past the block: where it ends is read on.
    const start = at + (feed !== -1 ? feed : this.lineAt(at).length) + 1;
    if (start >= this.to) return { start: this.to, id: 0 };
    const end = feed === -1 ? -1 : block.subarray(0, got).indexOf(10, feed + 1);
    if (end !== -1) return { start, id: this.idOf(block, feed + 1, end) };
    const bytes = this.lineAt(start);
    return { start, id: this.idOf(bytes, 0, bytes.length) };
  }

  /** The lines from byte `start` to byte `end`, read a block at a time (growing to RUN_BYTES), each valid until the next. */
  private *run(start: number, end: number): Generator<{ bytes: Buffer; from: number; to: number; start: number }> {
    const lines: { bytes: Buffer; from: number; to: number; start: number }[] = [];
    let block = Buffer.allocUnsafe(Math.max(1, Math.min(SCAN_BYTES, end - start)));
    let chunk = block;
    const cutter = new LineCutter(MAX_LINE_BYTES, (bytes, from, to, lineStart) => {
      if (bytes === undefined) throw storeCorruptError(this.path, `the line at byte ${lineStart} is longer than any plant`);
      // A line begun in the block before is in the cutter's own buffer, which the next line reuses.
      lines.push(bytes === chunk ? { bytes, from, to, start: lineStart } : { bytes: Buffer.from(bytes.subarray(from, to)), from: 0, to: to - from, start: lineStart });
    }, start);
    for (let position = start; position < end; ) {
      const got = this.reading(() => this.fs.readSync(this.fd, block, 0, Math.min(block.length, end - position), position));
      if (got === 0) throw storeIoError(this.path, 'read', new Error('the store file ended before its last plant'));
      position += got;
      chunk = got === block.length ? block : block.subarray(0, got);
      cutter.push(chunk);
      yield* lines.splice(0);
      if (block.length < RUN_BYTES && position < end) block = Buffer.allocUnsafe(Math.min(RUN_BYTES, block.length * 2, end - position));
    }
  }

  private lineAt(start: number): Buffer {
    const bytes = this.reading(() => readLineAt(this.fs, this.fd, start, MAX_LINE_BYTES, PROBE_BYTES));
    if (bytes === undefined) throw storeCorruptError(this.path, `no whole line at byte ${start}`);
    return bytes;
  }

  /**
   * The line at `start`, once the ids are loaded (many lookups: an import's batch, a fold): read
   * a block of BLOCK_BYTES at a time and kept, so that lookups in id order read the file once, not
   * a line a read.
   */
  private textAt(start: number): string {
    const end = this.blockEnd(start);
    if (end === -1) {
      const bytes = this.lineAt(start);
      return lineText(bytes, 0, bytes.length);
    }
    return lineText(this.block, start - this.blockStart, end);
  }

  /**
   * Where the line at `start` ends in the block kept, which is read anew from `start` where it
   * does not hold that line whole: -1 for a line longer than a block (up to MAX_LINE_BYTES).
   */
  private blockEnd(start: number): number {
    const offset = start - this.blockStart;
    const end = offset >= 0 && offset < this.block.length ? this.block.indexOf(10, offset) : -1;
    if (end !== -1) return end;
    this.readBlock(start);
    return this.block.indexOf(10);
  }

  /**
   * Whether the block kept holds the line from `start` to its line feed at `feed`, read anew from
   * `start` where it does not hold those bytes: false for a line longer than a block, or where
   * `feed` is no line feed (a file that does not match its entries).
   */
  private blockHolds(start: number, feed: number): boolean {
    if (start < this.blockStart || feed >= this.blockStart + this.block.length) this.readBlock(start);
    return feed > start && feed < this.blockStart + this.block.length && this.block[feed - this.blockStart] === 10;
  }

  private readBlock(start: number): void {
    const size = Math.min(BLOCK_BYTES, this.to - start);
    const block = Buffer.allocUnsafe(size);
    const got = this.reading(() => this.fs.readSync(this.fd, block, 0, size, start));
    this.block = block.subarray(0, got);
    this.blockStart = start;
  }

  private idOf(bytes: Buffer, from: number, to: number): number | bigint {
    const id = lineId(bytes, from, to);
    if (id === undefined) throw storeCorruptError(this.path, `a line is not a plant of ours: ${bytes.toString('utf8', from, Math.min(to, from + 60))}`);
    return id;
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

/**
 * How the canonical line in `bytes[from, to)` compares with `line`, for a line of ASCII: the same,
 * another (they differ after the id), or foreign (they differ within `{"id":<id>,`). Undefined for
 * a line with any other character: compared as text then.
 */
function sameBytes(bytes: Buffer, from: number, to: number, line: string): Held | undefined {
  const idEnd = line.indexOf(',');
  for (let i = 0; i < line.length; i += 1) {
    const unit = line.charCodeAt(i);
    if (unit >= 0x80) return undefined;
    if (from + i >= to || bytes[from + i] !== unit) return i <= idEnd ? 'foreign' : 'other';
  }
  return to - from === line.length ? 'same' : 'other';
}

function sameId(id: number | bigint, other: bigint): boolean {
  return typeof id === 'bigint' ? id === other : BigInt(id) === other;
}

/**
 * A store file read whole and held in memory, canonical lines in id order: one in a layout of its
 * own. Or no store file at all yet: nothing to rewrite.
 */
export class MemoryView implements StoreFileView {
  static readonly NONE = new MemoryView(SortedEntries.EMPTY, [], true);

  constructor(
    /** Positions in `lines`, by id. */
    private readonly entries: SortedEntries,
    private readonly lines: readonly string[],
    readonly canonical = false,
  ) {}

  get plants(): number {
    return this.entries.size;
  }

  has(id: bigint): boolean {
    return this.lines.length !== 0 && find(this.entries, id) !== -1;
  }

  lineOf(id: bigint): string | undefined {
    const position = this.lines.length === 0 ? -1 : find(this.entries, id);
    return position === -1 ? undefined : this.lines[this.entries.valueAt(position)];
  }

  holds(id: bigint, line: string): Held {
    return heldAs(this.lineOf(id), line);
  }

  *linesAfter(after: bigint | undefined): Iterable<StoreLine> {
    for (let i = after === undefined ? 0 : this.entries.after(after); i < this.entries.size; i += 1) {
      yield { id: this.entries.idAt(i), line: this.lines[this.entries.valueAt(i)] as string };
    }
  }

  close(): void {}
}
