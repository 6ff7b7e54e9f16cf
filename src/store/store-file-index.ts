import { closeSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** Where each half of a 64-bit integer is, in 32-bit words, on this machine. */
const [LOW, HIGH] = endianness() === 'LE' ? [0, 1] : [1, 0];

/** Where the lines of an index are: a store file open for reading, or lines held in memory. */
interface LineSource {
  read(start: number, length: number): string;
  /**
   * Hands `write` the bytes from `start` on, `length` of them, in blocks valid only during the
   * call; false where the lines are not bytes side by side in a file (held in memory).
   */
  copy(start: number, length: number, write: (bytes: Uint8Array) => void): boolean;
  close(): void;
}

/** Where the plants of a file being written went: their ids, byte positions and lengths, in order. */
export interface WrittenLines {
  ids: BigInt64Array;
  starts: Float64Array;
  lengths: Uint32Array;
}

/**
 * The plants of a store file, in id order: each one's id, and where its line is. A million plants
 * take 20 MB here (where a Map of their lines took ~250), and a line is read only when a plant is
 * asked for: to answer a read, or to fold the journal into a new store file.
 */
export class StoreFileIndex {
  /**
   * The same ids as 32-bit halves, for searching: reading a BigInt64Array makes a new BigInt each
   * time, and a search of a million ids made twenty, which an import's duplicate checks turned into
   * most of its garbage.
   */
  private readonly halves: Int32Array;

  private constructor(
    /** Ascending. */
    private readonly ids: BigInt64Array,
    private readonly starts: Float64Array,
    private readonly lengths: Uint32Array,
    private readonly source: LineSource,
  ) {
    this.halves = new Int32Array(ids.buffer, ids.byteOffset, ids.length * 2);
  }

  static empty(): StoreFileIndex {
    return StoreFileIndex.inMemory([]);
  }

  /** Lines in a file open as `fd`, at the given byte positions, already in id order. The index owns `fd`. */
  static inFile(fd: number, ids: BigInt64Array, starts: Float64Array, lengths: Uint32Array): StoreFileIndex {
    return new StoreFileIndex(ids, starts, lengths, new FileLines(fd));
  }

  /** Lines held in memory (a store file in a layout of its own, read whole), with their ids, in id order. */
  static inMemory(plants: readonly { id: bigint; line: string }[]): StoreFileIndex {
    const lines = plants.map((plant) => plant.line);
    return new StoreFileIndex(
      BigInt64Array.from(plants, (plant) => plant.id),
      // Positions in `lines`, not in a file; the lengths, in bytes, are where they go when written.
      Float64Array.from(lines, (_, i) => i),
      Uint32Array.from(lines, (line) => Buffer.byteLength(line)),
      { read: (start) => lines[start] as string, copy: () => false, close: () => undefined },
    );
  }

  get size(): number {
    return this.ids.length;
  }

  idAt(position: number): bigint {
    return this.ids[position] as bigint;
  }

  lineAt(position: number): string {
    return this.source.read(this.starts[position] as number, this.lengths[position] as number);
  }

  /**
   * Writes the lines at positions [from, to) through `write`, `separator` between them, and
   * records where they went (written from byte `at` on, at `into`'s position `index`). Where they
   * lie in the file as they are to be written, they are copied a block at a time, never decoded:
   * a fold copies the store file's runs of unchanged plants so. Returns the bytes written.
   */
  copyLines(from: number, to: number, separator: string, write: (chunk: string | Uint8Array) => void, into: WrittenLines, index: number, at: number): number {
    if (from >= to) return 0;
    const gap = Buffer.byteLength(separator);
    const { starts, lengths } = this;
    let position = at;
    for (let line = from; line < to; line += 1) {
      into.starts[index + line - from] = position;
      position += (lengths[line] as number) + gap;
    }
    into.ids.set(this.ids.subarray(from, to), index);
    into.lengths.set(lengths.subarray(from, to), index);
    const bytes = position - gap - at;
    const first = starts[from] as number;
    // Side by side, as written: each line where the one before it and a separator end.
    let together = true;
    for (let line = from + 1; line < to && together; line += 1) together = starts[line] === (starts[line - 1] as number) + (lengths[line - 1] as number) + gap;
    if (together && this.source.copy(first, bytes, write)) return bytes;
    for (let line = from; line < to; line += 1) {
      if (line > from) write(separator);
      write(this.lineAt(line));
    }
    return bytes;
  }

  /** The position of the first plant whose id is greater than `id` (the size if there is none). */
  after(id: bigint): number {
    // The id as its high half (signed) and low half (unsigned), compared as numbers.
    const high32 = Number(BigInt.asIntN(32, id >> 32n));
    const low32 = Number(BigInt.asUintN(32, id));
    const { halves } = this;
    let low = 0;
    let high = this.ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const idHigh = halves[2 * middle + HIGH] as number;
      if (idHigh < high32 || (idHigh === high32 && (halves[2 * middle + LOW] as number) >>> 0 <= low32)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  has(id: bigint): boolean {
    const position = this.after(id) - 1;
    return position >= 0 && this.ids[position] === id;
  }

  close(): void {
    this.source.close();
  }
}

/** Reads lines from a file by position, a block at a time: lines read in file order cost a read(2) per 64 KiB. */
class FileLines implements LineSource {
  private block = Buffer.alloc(0);
  private blockStart = 0;

  constructor(private readonly fd: number) {}

  read(start: number, length: number): string {
    return this.bytes(start, length).toString('utf8');
  }

  copy(start: number, length: number, write: (bytes: Uint8Array) => void): boolean {
    const block = Buffer.allocUnsafe(Math.min(length, 1024 * 1024));
    for (let done = 0; done < length; ) {
      const got = readSync(this.fd, block, 0, Math.min(block.length, length - done), start + done);
      if (got === 0) throw Object.assign(new Error('the store file ended before its last plant'), { code: 'EIO' });
      write(block.subarray(0, got));
      done += got;
    }
    return true;
  }

  private bytes(start: number, length: number): Buffer {
    if (start < this.blockStart || start + length > this.blockStart + this.block.length) {
      const block = Buffer.allocUnsafe(Math.max(64 * 1024, length));
      const got = readSync(this.fd, block, 0, block.length, start);
      this.block = block.subarray(0, got);
      this.blockStart = start;
    }
    const offset = start - this.blockStart;
    return this.block.subarray(offset, offset + length);
  }

  close(): void {
    closeSync(this.fd);
  }
}
