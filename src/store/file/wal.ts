import { isPlantsError } from '../../core/errors.js';
import { INT64_MAX, INT64_MIN } from '../../core/int64.js';
import { encodePlant, plainLineId, readPlantJson } from '../../core/plant-json.js';
import type { BigIntStats, FileSystem } from '../../fs/file-system.js';
import { readAtOf, readLinesSync } from '../../fs/lines.js';
import { storeCorruptError, storeIoError } from '../store-errors.js';
import { MAX_LINE_BYTES } from './database-file.js';

/**
 * The WAL (write-ahead log), on disk `<store>.journal` (store-paths.ts): every change since the
 * database file was last checkpointed, one JSON line each: a plant's whole state
 * (`{"id":1,"name":"Fern"}`) or an id deleted (`{"delete":1}`). Appending a batch costs O(batch),
 * where rewriting the database file costs O(store): this is what lets a server answer thousands of
 * durable writes a second. A batch is acknowledged only once its lines are fsynced (wal-appender.ts);
 * a crash mid-append leaves a torn last line, which was never acknowledged and is dropped. A
 * checkpoint folds the WAL into the database file now and then, and then removes it; folding it
 * again (a crash between the two) changes nothing, since each id's last line in the WAL is its state.
 */

/** The line that deletes a plant. */
export function deleteLine(id: bigint): string {
  return `{"delete":${id}}`;
}

/**
 * What the WAL says of an id, as an entry's value (in a snapshot, and in the wal-index): where its
 * last line starts, for a line in canonical form (as plants writes them); DELETED where that line
 * deletes it; and for a line in another form (a WAL edited by hand), `rewritten(start)`: its plant
 * is read through the lossless parser, and written in canonical form by a checkpoint.
 */
export const DELETED = -1;

export function rewritten(start: number): number {
  return -2 - start;
}

const DELETE_LINE = /^\{"delete":(0|-?[1-9][0-9]*)\}$/;

/**
 * Reads the WAL's whole lines from byte `from` to byte `to` (its size when looked at), checking
 * each, and hands on what each says of its id: where it starts, or DELETED. A line that says
 * nothing valid makes the store corrupt, named by its number when the read starts at the WAL's
 * start, else by where it is. Returns the lines read and where the whole ones end: a torn tail
 * beyond is left for the next append to cut.
 */
export function readWal(
  fs: FileSystem,
  fd: number,
  path: string,
  from: number,
  to: number,
  onEntry: (id: bigint, value: number) => void,
): { lines: number; wholeBytes: number } {
  let lines = 0;
  const name = (start: number) => (from === 0 ? `line ${lines}` : `the line at byte ${start}`);
  let wholeBytes: number;
  try {
    wholeBytes = readLinesSync(readAtOf(fs, fd), from, to, MAX_LINE_BYTES, (bytes, lineFrom, lineTo, start) => {
      lines += 1;
      if (bytes === undefined)
        throw storeCorruptError(
          path,
          `${name(start)} is not JSON (longer than any plant: over ${MAX_LINE_BYTES} bytes)`,
        );
      // Nearly every line: a plain canonical plant, checked on its bytes.
      const plain = plainLineId(bytes, lineFrom, lineTo);
      if (plain !== undefined) {
        onEntry(BigInt(plain), start);
        return;
      }
      const text = bytes.toString('utf8', lineFrom, lineTo);
      const deleted = DELETE_LINE.exec(text);
      if (deleted !== null) {
        const id = BigInt(deleted[1] as string);
        // The pattern takes any number of digits: an id no plant can have is as corrupt as an invalid plant.
        if (id < INT64_MIN || id > INT64_MAX)
          throw storeCorruptError(
            path,
            `${name(start)}: the deleted id must be between ${INT64_MIN} and ${INT64_MAX}, got ${id}`,
          );
        onEntry(id, DELETED);
        return;
      }
      const reading = readPlantJson(text);
      if (reading.plant === undefined)
        throw storeCorruptError(
          path,
          reading.notJson !== undefined
            ? `${name(start)} is not JSON (${reading.notJson})`
            : `${name(start)}: ${reading.invalid.message}`,
        );
      onEntry(reading.plant.id, reading.canonical ? start : rewritten(start));
    });
  } catch (error) {
    throw isPlantsError(error) ? error : storeIoError(path, 'read', error);
  }
  return { lines, wholeBytes };
}

/** A line's bytes where they were read: `block[from, to)`. */
export interface LineBytes {
  block: Buffer;
  from: number;
  to: number;
}

/**
 * WAL lines are read by where they start: the first in a block of FIRST_BYTES (a command reads a
 * plant or a page), those after it in blocks of BLOCK_BYTES (a checkpoint reads them mostly in order).
 */
const FIRST_BYTES = 4 * 1024;
const BLOCK_BYTES = 64 * 1024;

/**
 * The lines of one WAL file by where they start, through its descriptor, a block at a time.
 * Only bytes below the whole lines' end are ever asked for: a torn tail beyond may be cut and
 * written over by the next append, but what is below never changes while the file lives.
 */
export class WalReader {
  private block = Buffer.alloc(0);
  private blockStart = 0;

  constructor(
    private readonly fs: FileSystem,
    private readonly fd: number,
    private readonly path: string,
  ) {}

  /**
   * The canonical text of the plant of an entry's value: the line where it starts, as it is (read
   * and checked when the entry was made), or re-encoded where it was in another form.
   */
  lineAt(value: number): string {
    const start = value < DELETED ? rewritten(value) : value;
    const { block, from, to } = this.lineBytes(start);
    const text = block.toString('utf8', from, to);
    if (value >= 0) return text;
    const reading = readPlantJson(text);
    if (reading.plant === undefined) throw storeCorruptError(this.path, `the line at byte ${start} is not a plant`);
    return encodePlant(reading.plant);
  }

  /**
   * The bytes of the line that starts at byte `start`: `block[from, to)`, its line feed at `to`; valid until the next
   * call.
   */
  lineBytes(start: number): LineBytes {
    let offset = start - this.blockStart;
    let end = offset >= 0 && offset < this.block.length ? this.block.indexOf(10, offset) : -1;
    for (let size = this.block.length === 0 ? FIRST_BYTES : BLOCK_BYTES; end === -1; size *= 2) {
      if (size > 8 * MAX_LINE_BYTES) throw storeCorruptError(this.path, `no whole line at byte ${start}`);
      const block = Buffer.allocUnsafe(size);
      let got: number;
      try {
        got = this.fs.readSync(this.fd, block, 0, size, start);
      } catch (error) {
        throw storeIoError(this.path, 'read', error);
      }
      this.block = block.subarray(0, got);
      this.blockStart = start;
      offset = 0;
      end = this.block.indexOf(10);
      if (end === -1 && got < size) throw storeCorruptError(this.path, `no whole line at byte ${start}`);
    }
    return { block: this.block, from: offset, to: end };
  }

  close(): void {
    this.fs.closeSync(this.fd);
  }
}

/**
 * A WAL file's identity: its inode number and, where the file system keeps one, its birth time.
 * An inode number alone is reused: a WAL removed by hand and made again may get the number of the
 * one before, and a wal-index of the old one must not vouch for the new one.
 */
export function walId(stats: Pick<BigIntStats, 'ino' | 'birthtimeNs'>): bigint {
  return (stats.birthtimeNs << 64n) | stats.ino;
}

/** The WAL file as last seen: its identity (undefined: no file) and size (a torn tail included). */
export interface WalFile {
  id: bigint | undefined;
  size: number;
}

/**
 * The reader of the WAL file a snapshot saw, opened when first needed, not with the snapshot: a
 * checkpoint that removed that WAL since is found here, as a WAL that changed, and the read is made
 * again on the files as they are. Kept open while it is the same file.
 */
export class WalOpener {
  private open: { id: bigint; reader: WalReader } | undefined;

  constructor(
    private readonly fs: FileSystem,
    private readonly path: string,
  ) {}

  reader(wal: WalFile): WalReader {
    if (this.open !== undefined && this.open.id === wal.id) return this.open.reader;
    this.close();
    let fd: number;
    try {
      fd = this.fs.openSync(this.path, 'r');
    } catch (error) {
      throw storeIoError(this.path, 'read', error);
    }
    const id = walId(this.fs.fstatSync(fd, { bigint: true }));
    const reader = new WalReader(this.fs, fd, this.path);
    if (id !== wal.id) {
      reader.close();
      throw storeIoError(this.path, 'read', new Error('the journal changed while it was read'));
    }
    this.open = { id, reader };
    return reader;
  }

  close(): void {
    this.open?.reader.close();
    this.open = undefined;
  }
}
