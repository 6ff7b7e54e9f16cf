import type { FileSystem } from '../../fs/file-system.js';
import { readAtOf } from '../../fs/lines.js';
import { INDENT, lineText } from './database-file.js';
import { DatabaseLines, SCAN_BYTES, type DatabaseBytes } from './database-lines.js';
import { find, type SortedEntries } from './sorted-entries.js';

/** A plant's line as a snapshot reads it from the database file: its id, and its canonical text. */
export interface StoreLine {
  id: bigint;
  line: string;
}

/** What a database file holds of an id, against a line of a plant of that id (DatabaseReader.holds). */
export type Held = 'absent' | 'same' | 'other' | 'foreign';

/** How a stored line compares with `line` (of the same id): both canonical, so equal text is the same plant. */
export function heldAs(stored: string | undefined, line: string): Held {
  if (stored === undefined) return 'absent';
  if (stored === line) return 'same';
  // Both start `{"id":<id>,`.
  const idEnd = line.indexOf(',') + 1;
  return stored.length > idEnd && stored.startsWith(line.slice(0, idEnd)) ? 'other' : 'foreign';
}

/** The bytes of the database file open as `fd`, of `size` bytes: closed once, with the reader. */
export function fileBytes(fs: FileSystem, fd: number, size: number): DatabaseBytes {
  let open = true;
  return {
    read: readAtOf(fs, fd),
    size,
    close: () => {
      if (open) fs.closeSync(fd);
      open = false;
    },
  };
}

/** Bytes held in memory, in chunks one after another, read as a file's are. */
export function memoryBytes(chunks: readonly Buffer[]): DatabaseBytes {
  const starts: number[] = [];
  let size = 0;
  for (const chunk of chunks) {
    starts.push(size);
    size += chunk.length;
  }
  const read = (into: Buffer, offset: number, length: number, position: number): number => {
    let got = 0;
    // From the last chunk that starts at or before `position`, on.
    const first = starts.findLastIndex((start) => start <= position);
    for (let i = first; i >= 0 && i < chunks.length && got < length; i += 1) {
      const chunk = chunks[i] as Buffer;
      const from = position + got - (starts[i] as number);
      if (from >= chunk.length) continue;
      got += chunk.copy(into, offset + got, from, Math.min(chunk.length, from + length - got));
    }
    return got;
  };
  return { read, size, close: () => undefined };
}

/**
 * A database file in our layout, read only where asked: a plant by id or a page is found by
 * halving the file's bytes (its lines are in id order), a few reads of a few KiB each, whatever its
 * size. Once asked for more plants than a read of all its ids would cost (a server, an import), it
 * reads them, once, and searches them in memory. Never changed once made.
 */
export class DatabaseReader {
  private readonly lines: DatabaseLines;
  private lookups = 0;
  /** Where the plant `holds` found last is among the entries. */
  private held = -1;

  constructor(
    bytes: DatabaseBytes,
    path: string,
    /** How many plants it holds. */
    readonly plants: number,
    /** Each plant's id and where its line starts, when read already. */
    private entries?: SortedEntries,
  ) {
    this.lines = new DatabaseLines(bytes, path);
  }

  /** Whether the file has a plant with this id. */
  has(id: bigint): boolean {
    const entries = this.searched();
    return entries !== undefined ? find(entries, id) !== -1 : this.halvingTo(id) !== undefined;
  }

  /** The canonical line of the plant with this id, if the file has one. */
  lineOf(id: bigint): string | undefined {
    const entries = this.searched();
    if (entries === undefined) return this.halvingTo(id);
    const position = find(entries, id);
    return position === -1 ? undefined : this.lines.textAt(entries.valueAt(position));
  }

  /**
   * How the plant with this id compares with the canonical line `line` of a plant of that id:
   * none, the same line, another, or a line of another id (a file that does not match its index).
   */
  holds(id: bigint, line: string): Held {
    const entries = this.searched();
    if (entries === undefined) return heldAs(this.halvingTo(id), line);
    // An import in id order asks for the plant after the one it asked for last: looked at first.
    const next = this.held + 1;
    const position = next < entries.size && entries.idAt(next) === id ? next : find(entries, id);
    if (position === -1) return 'absent';
    this.held = position;
    const start = entries.valueAt(position);
    const { lines } = this;
    // The line's feed is right before where the next line starts (or the lines end): none looked for.
    const feed = (position + 1 < entries.size ? entries.valueAt(position + 1) : lines.to) - 1;
    if (!lines.blockHolds(start, feed)) return heldAs(lines.textAt(start), line);
    const end = feed - lines.blockStart;
    // Compared on the block's bytes, without making a string of the stored line (an update import
    // asks for each of its rows).
    const to = lines.block[end - 1] === 0x2c ? end - 1 : end;
    const same = sameBytes(lines.block, start - lines.blockStart + INDENT.length, to, line);
    return same ?? heldAs(lines.textAt(start), line);
  }

  /** The plants from the first whose id is above `after` (all, if undefined), in id order, as they are read. */
  *linesAfter(after: bigint | undefined): Iterable<StoreLine> {
    const { entries, lines } = this;
    let start = lines.from;
    if (after !== undefined && entries === undefined) start = this.firstAbove(after, false);
    else if (after !== undefined && entries !== undefined) {
      const next = entries.after(after);
      start = next < entries.size ? entries.valueAt(next) : lines.to;
    }
    for (const { bytes, from, to } of lines.run(start, lines.to)) {
      yield { id: BigInt(lines.idOf(bytes, from, to)), line: lineText(bytes, from, to) };
    }
  }

  close(): void {
    this.lines.close();
  }

  /** The ids in memory, read now if this file has been asked for more plants than that costs. */
  private searched(): SortedEntries | undefined {
    this.lookups += 1;
    if (this.entries === undefined && this.lookups * 1000 > this.plants) this.entries = this.lines.ids();
    return this.entries;
  }

  /** The line of the plant with this id, found by halving the file. */
  private halvingTo(id: bigint): string | undefined {
    const start = this.firstAbove(id, true);
    if (start >= this.lines.to) return undefined;
    const bytes = this.lines.lineAt(start);
    const found = this.lines.idOf(bytes, 0, bytes.length);
    const same = typeof found === 'bigint' ? found === id : BigInt(found) === id;
    return same ? lineText(bytes, 0, bytes.length) : undefined;
  }

  /**
   * Where the first line with an id above `target` (at or above it, if `inclusive`) starts: the
   * end of the lines if there is none. Probes the middle of what is left, by bytes: the first line
   * that starts after it. `limit` is below the end where no line starts between it and `high`.
   */
  private firstAbove(target: bigint, inclusive: boolean): number {
    const above = (id: number | bigint) => (inclusive ? id >= target : id > target);
    const { lines } = this;
    let low = lines.from;
    let high = lines.to;
    let limit = high;
    while (limit - low > SCAN_BYTES) {
      const middle = low + Math.floor((limit - low) / 2);
      const probe = lines.probe(middle);
      if (probe.start >= limit) limit = middle;
      else if (above(probe.id)) high = limit = probe.start;
      else low = probe.start;
    }
    for (const { bytes, from, to, start } of lines.run(low, high)) if (above(lines.idOf(bytes, from, to))) return start;
    return high;
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
