import { closeSync, readSync } from 'node:fs';

/** Where the lines of an index are: a store file open for reading, or lines held in memory. */
interface LineSource {
  read(start: number, length: number): string;
  close(): void;
}

/**
 * The plants of a store file, in id order: each one's id, and where its line is. A million plants
 * take 20 MB here (where a Map of their lines took ~250), and a line is read only when a plant is
 * asked for: to answer a read, or to fold the journal into a new store file.
 */
export class StoreFileIndex {
  private constructor(
    /** Ascending. */
    private readonly ids: BigInt64Array,
    private readonly starts: Float64Array,
    private readonly lengths: Uint32Array,
    private readonly source: LineSource,
  ) {}

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
      Float64Array.from(lines, (_, i) => i),
      new Uint32Array(lines.length),
      { read: (start) => lines[start] as string, close: () => undefined },
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

  /** The position of the first plant whose id is greater than `id` (the size if there is none). */
  after(id: bigint): number {
    let low = 0;
    let high = this.ids.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.ids[middle] as bigint) <= id) low = middle + 1;
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
    if (start < this.blockStart || start + length > this.blockStart + this.block.length) {
      const block = Buffer.allocUnsafe(Math.max(64 * 1024, length));
      const got = readSync(this.fd, block, 0, block.length, start);
      this.block = block.subarray(0, got);
      this.blockStart = start;
    }
    const offset = start - this.blockStart;
    return this.block.toString('utf8', offset, offset + length);
  }

  close(): void {
    closeSync(this.fd);
  }
}
