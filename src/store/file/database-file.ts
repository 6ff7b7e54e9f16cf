import { encodePlant } from '../../core/plant-json.js';
import type { NewPlant } from '../../core/schemas.js';

/**
 * The database file, on disk the store's own path (`plants.json`), format version 1:
 *
 *   {
 *     "plantStore": 1,
 *     "plants": [
 *       {"id":1,"name":"Fern","tag":"herb"},
 *       ...
 *     ]
 *   }
 *
 * One plant per line, in id order, each in its canonical form (core/plant-json.ts), ids as exact
 * JSON integers. The `plantStore` marker is how we know a file is ours: anything else is refused,
 * never overwritten. Any JSON document of this shape is read, once, and checkpointed into this
 * layout (normalise.ts); only a file in this layout is read where needed (database-reader.ts).
 * Beside it, the WAL holds what changed since (wal.ts), and the wal-index what a reader needs to
 * find its way in both (wal-index.ts). docs/store.md tells how the parts fit.
 */
export const FORMAT_VERSION = 1;

export const HEAD = `{\n  "plantStore": ${FORMAT_VERSION},\n  "plants": [`;
const TAIL = ']\n}\n';
export const INDENT = '    ';
export const EMPTY = `${HEAD}${TAIL}`;
/** What follows the last plant's line. */
export const LAST_LINE_END = `\n  ${TAIL}`;
const FIRST_SEPARATOR = `\n${INDENT}`;
const SEPARATOR = `,\n${INDENT}`;

/** The most bytes one line of the database file or its WAL may take: far more than any plant's. */
export const MAX_LINE_BYTES = 64 * 1024;

/** A database file of these plants, in the order given. */
export function encodeDatabase(plants: Iterable<NewPlant>): string {
  const lines = [...plants].map(encodePlant);
  return lines.length === 0 ? EMPTY : `${HEAD}${FIRST_SEPARATOR}${lines.join(SEPARATOR)}${LAST_LINE_END}`;
}

/** What DatabaseWriter gathers before each write. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Writes a database file in our layout through `write`, a chunk at a time (each valid only during
 * the call): its head, each plant's canonical line in id order, and its tail (`end`). A line is
 * given as text, or begun (`begin`) and given as the bytes it was read as (`copy`, in one piece or
 * more): a checkpoint copies the WAL's lines as they are, rather than make a string of each and
 * encode it again. Tells `onLine` where each line starts.
 */
export class DatabaseWriter {
  private readonly chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  private used: number;
  /** The bytes of the chunks written. */
  private written = 0;
  private count = 0;

  constructor(
    private readonly write: (chunk: Buffer) => void,
    private readonly onLine: (id: bigint, start: number) => void = () => undefined,
  ) {
    this.used = this.chunk.write(HEAD, 'latin1');
  }

  text(id: bigint, line: string): void {
    this.begin(id);
    if (line.length * 3 > CHUNK_BYTES) {
      const bytes = Buffer.from(line);
      this.copy(bytes, 0, bytes.length);
      return;
    }
    this.room(line.length * 3);
    this.used += this.chunk.write(line, this.used);
  }

  /** Begins the line of the plant `id`: the separator before it. */
  begin(id: bigint): void {
    this.room(SEPARATOR.length);
    const { chunk } = this;
    if (this.count > 0) chunk[this.used++] = 0x2c;
    chunk[this.used++] = 0x0a;
    this.onLine(id, this.written + this.used);
    for (let i = 0; i < INDENT.length; i += 1) chunk[this.used++] = INDENT.charCodeAt(i);
    this.count += 1;
  }

  /** Bytes of the line begun, `source[from, to)`. */
  copy(source: Uint8Array, from: number, to: number): void {
    const { chunk } = this;
    // Byte by byte: a plant's line is short, and a native copy a line costs more than the loop.
    let used = this.used;
    for (let i = from; i < to; i += 1) {
      if (used === CHUNK_BYTES) {
        this.used = used;
        this.flush();
        used = 0;
      }
      chunk[used++] = source[i] as number;
    }
    this.used = used;
  }

  /** Writes the tail and what is left; returns how many plants were written. */
  end(): number {
    this.used += this.chunk.write(this.count === 0 ? TAIL : LAST_LINE_END, this.used, 'latin1');
    this.flush();
    return this.count;
  }

  /** Room for `bytes` more in the chunk: what it holds is written first where they would not fit. */
  private room(bytes: number): void {
    if (this.used + bytes > CHUNK_BYTES) this.flush();
  }

  private flush(): void {
    this.write(this.chunk.subarray(0, this.used));
    this.written += this.used;
    this.used = 0;
  }
}

/** Where the plants' lines of a file of this size in our layout begin and end. */
export function plantLines(size: number): { from: number; to: number } {
  const from = HEAD.length + 1;
  // An empty store's file is its head and tail alone.
  return size <= EMPTY.length ? { from, to: from } : { from, to: size - LAST_LINE_END.length + 1 };
}

const ID_START = Buffer.from(`${INDENT}{"id":`);

/**
 * The id of a plant's line in our layout (`    {"id":123,…`), from its bytes, without a BigInt
 * where a double holds it exactly; undefined if the line does not start so.
 */
export function lineId(bytes: Buffer, from: number, to: number): number | bigint | undefined {
  const starts =
    to - from >= ID_START.length + 2 && bytes.compare(ID_START, 0, ID_START.length, from, from + ID_START.length) === 0;
  if (!starts) return undefined;
  let at = from + ID_START.length;
  const negative = bytes[at] === 0x2d;
  if (negative) at += 1;
  const digitsFrom = at;
  let value = 0;
  for (; at < to && (bytes[at] as number) >= 0x30 && (bytes[at] as number) <= 0x39; at += 1) {
    value = value * 10 + ((bytes[at] as number) - 0x30);
  }
  const digits = at - digitsFrom;
  if (digits === 0 || bytes[at] !== 0x2c) return undefined;
  if (digits <= 15) return negative ? -value : value;
  const big = BigInt(bytes.toString('latin1', digitsFrom, at));
  return negative ? -big : big;
}

/** A plant's line in our layout, as its canonical text: without its indent and the comma after it. */
export function lineText(bytes: Buffer, from: number, to: number): string {
  return bytes.toString('utf8', from + INDENT.length, bytes[to - 1] === 0x2c ? to - 1 : to);
}
