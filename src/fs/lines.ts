import type { FileSystem } from './file-system.js';

/**
 * Reads up to `length` bytes from byte `position` into `into` at `offset`, as readSync does, and
 * says how many it read (0 at the end): a file's through its descriptor (readAtOf), or bytes held
 * in memory.
 */
export type ReadAt = (into: Buffer, offset: number, length: number, position: number) => number;

/** The bytes of the file open as `fd`, read through `fs`. */
export function readAtOf(fs: FileSystem, fd: number): ReadAt {
  return (into, offset, length, position) => fs.readSync(fd, into, offset, length, position);
}

/**
 * Called with each line cut: its bytes are `bytes[from, to)`, valid only during the call, or
 * `bytes` is undefined for a line over the limit, whose bytes were dropped as they came; `start`
 * is where the line begins in the input, in bytes. Return false to stop.
 */
export type OnLine = (bytes: Buffer | undefined, from: number, to: number, start: number) => boolean | void;

/**
 * The one line reader of plants, for the store file, its journal and import's NDJSON: lines cut
 * out of an input's bytes chunk by chunk, without their line feed. No line takes more memory than
 * `maxBytes`, however long it is (a 100 MB line, /dev/zero): past it, its bytes are dropped and it
 * is handed on as too long. Bytes after the last line feed are no line until the input is said to
 * have ended (`end`): a journal's torn tail, or an NDJSON file's last line.
 */
export class LineCutter {
  /** Where the line being cut begins in the input. */
  private start: number;
  /** The bytes of that line in earlier chunks: all counted, kept in `carry` up to the limit. */
  private pending = 0;
  private carry = Buffer.alloc(0);
  private carried = 0;
  private over = false;
  private stopped = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: OnLine,
    /** Where the first chunk begins in the input. */
    from = 0,
  ) {
    this.start = from;
  }

  /** Where the lines cut so far end, their line feeds included: what follows is a line not yet ended. */
  get wholeBytes(): number {
    return this.start;
  }

  /** Cuts the lines `chunk` ends; false once onLine asked to stop (nothing more is cut). */
  push(chunk: Buffer): boolean {
    let from = 0;
    for (let end = chunk.indexOf(10); end !== -1 && !this.stopped; end = chunk.indexOf(10, from)) {
      const length = this.pending + end - from;
      if (length > this.maxBytes) this.hand(undefined, 0, 0, length);
      else if (this.pending === 0) this.hand(chunk, from, end, length);
      else {
        this.keep(chunk, from, end);
        this.hand(this.carry, 0, this.carried, length);
      }
      from = end + 1;
    }
    if (!this.stopped) this.keep(chunk, from, chunk.length);
    return !this.stopped;
  }

  /** The input has ended: bytes after its last line feed, if any, are its last line. */
  end(): void {
    if (this.stopped || this.pending === 0) return;
    const length = this.pending;
    this.hand(length > this.maxBytes ? undefined : this.carry, 0, this.carried, length);
    // No line feed follows it.
    this.start -= 1;
  }

  private hand(bytes: Buffer | undefined, from: number, to: number, length: number): void {
    const start = this.start;
    this.start += length + 1;
    this.pending = 0;
    this.carried = 0;
    this.over = false;
    if (this.onLine(bytes, from, to, start) === false) this.stopped = true;
  }

  private keep(chunk: Buffer, from: number, to: number): void {
    const length = to - from;
    this.pending += length;
    if (this.over || length === 0) return;
    if (this.carried + length > this.maxBytes) {
      this.over = true;
      return;
    }
    if (this.carry.length < this.carried + length) {
      const bigger = Buffer.allocUnsafe(
        Math.min(this.maxBytes, Math.max(this.carry.length * 2, this.carried + length, 1024)),
      );
      this.carry.copy(bigger, 0, 0, this.carried);
      this.carry = bigger;
    }
    chunk.copy(this.carry, this.carried, from, to);
    this.carried += length;
  }
}

/** Files are read in blocks of this size, however large they are. */
const BLOCK_BYTES = 1024 * 1024;

/**
 * Cuts the lines of a file, read through `read`, from byte `from` to byte `to` (its size when read
 * began: what is appended later is not read), a block at a time. Returns where the whole lines
 * end: bytes after it are a line not ended (a torn tail), never handed on.
 */
export function readLinesSync(read: ReadAt, from: number, to: number, maxBytes: number, onLine: OnLine): number {
  const cutter = new LineCutter(maxBytes, onLine, from);
  const block = Buffer.allocUnsafe(Math.max(1, Math.min(BLOCK_BYTES, to - from)));
  for (let position = from; position < to;) {
    const got = read(block, 0, Math.min(block.length, to - position), position);
    if (got === 0) break;
    position += got;
    if (!cutter.push(got === block.length ? block : block.subarray(0, got))) break;
  }
  return cutter.wholeBytes;
}

/**
 * The line of a file, read through `read`, that begins at byte `start`, without its line feed;
 * undefined where no line feed comes within `maxBytes` (or before the file ends).
 */
export function readLineAt(read: ReadAt, start: number, maxBytes: number, firstRead = 4096): Buffer | undefined {
  for (let size = Math.min(firstRead, maxBytes + 1); ; size = Math.min(size * 4, maxBytes + 1)) {
    const block = Buffer.allocUnsafe(size);
    const got = read(block, 0, size, start);
    const end = block.indexOf(10);
    if (end !== -1 && end < got) return block.subarray(0, end);
    if (got < size || size > maxBytes) return undefined;
  }
}
