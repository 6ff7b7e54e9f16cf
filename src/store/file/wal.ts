import { isPlantsError } from '../../core/errors.js';
import { INT64_MAX, INT64_MIN } from '../../core/int64.js';
import { encodePlant, plainLineId, readPlantJson } from '../../core/plant-json.js';
import { fdatasync, syncDirectory, writeAll } from '../../fs/durable-file.js';
import type { BigIntStats, FileSystem } from '../../fs/file-system.js';
import { readAtOf, readLinesSync } from '../../fs/lines.js';
import { storeCorruptError, storeIoError, storeMaybeWrittenError } from '../store-errors.js';
import { MAX_LINE_BYTES } from './database-file.js';

/**
 * `<store>.journal`: every change since the store file was last written, one JSON line each: a
 * plant added (`{"id":1,"name":"Fern"}`) or an id deleted (`{"delete":1}`). Appending a batch costs
 * O(batch), where rewriting the store costs O(store): this is what lets a server answer thousands
 * of durable writes a second. A batch is acknowledged only once its lines are fsynced; a crash
 * mid-append leaves a torn last line, which was never acknowledged and is dropped. The journal is
 * folded into the store file now and then, and then removed; folding it again (a crash between
 * the two) changes nothing, since each id's last line in the journal is its state.
 */
export function journalPathOf(storePath: string): string {
  return `${storePath}.journal`;
}

/** The line that deletes a plant. */
export function deleteLine(id: bigint): string {
  return `{"delete":${id}}`;
}

/**
 * What the journal says of an id, as an entry's value (in a snapshot, and in the index): where its
 * last line starts, for a line in canonical form (as plants writes them); DELETED where that line
 * deletes it; and for a line in another form (a journal edited by hand), `rewritten(start)`: its
 * plant is read through the lossless parser, and written in canonical form by a fold.
 */
export const DELETED = -1;

export function rewritten(start: number): number {
  return -2 - start;
}

const DELETE_LINE = /^\{"delete":(0|-?[1-9][0-9]*)\}$/;

/**
 * Reads the journal's whole lines from byte `from` to byte `to` (its size when looked at), checking
 * each, and hands on what each says of its id: where it starts, or DELETED. A line that says
 * nothing valid makes the store corrupt, named by its number when the read starts at the journal's
 * start, else by where it is. Returns the lines read and where the whole ones end: a torn tail
 * beyond is left for the next append to cut.
 */
export function readJournal(fs: FileSystem, fd: number, path: string, from: number, to: number, onEntry: (id: bigint, value: number) => void): { lines: number; wholeBytes: number } {
  let lines = 0;
  const name = (start: number) => (from === 0 ? `line ${lines}` : `the line at byte ${start}`);
  let wholeBytes: number;
  try {
    wholeBytes = readLinesSync(readAtOf(fs, fd), from, to, MAX_LINE_BYTES, (bytes, lineFrom, lineTo, start) => {
      lines += 1;
      if (bytes === undefined) throw storeCorruptError(path, `${name(start)} is not JSON (longer than any plant: over ${MAX_LINE_BYTES} bytes)`);
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
        if (id < INT64_MIN || id > INT64_MAX) throw storeCorruptError(path, `${name(start)}: the deleted id must be between ${INT64_MIN} and ${INT64_MAX}, got ${id}`);
        onEntry(id, DELETED);
        return;
      }
      const reading = readPlantJson(text);
      if (reading.plant === undefined) throw storeCorruptError(path, reading.notJson !== undefined ? `${name(start)} is not JSON (${reading.notJson})` : `${name(start)}: ${reading.invalid.message}`);
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
 * Journal lines are read by where they start: the first in a block of FIRST_BYTES (a command reads
 * a plant or a page), those after it in blocks of BLOCK_BYTES (a fold reads them mostly in order).
 */
const FIRST_BYTES = 4 * 1024;
const BLOCK_BYTES = 64 * 1024;

/**
 * The lines of one journal file by where they start, through its descriptor, a block at a time.
 * Only bytes below the whole lines' end are ever asked for: a torn tail beyond may be cut and
 * written over by the next append, but what is below never changes while the file lives.
 */
export class JournalReader {
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

  /** The bytes of the line that starts at byte `start`: `block[from, to)`, its line feed at `to`; valid until the next call. */
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
 * A journal file's identity: its inode number and, where the file system keeps one, its birth
 * time. An inode number alone is reused: a journal removed by hand and made again may get the
 * number of the one before, and an index of the old one must not vouch for the new one.
 */
export function journalId(stats: Pick<BigIntStats, 'ino' | 'birthtimeNs'>): bigint {
  return (stats.birthtimeNs << 64n) | stats.ino;
}

/** The journal file as last seen: its identity (undefined: no file) and size (a torn tail included). */
export interface JournalFile {
  id: bigint | undefined;
  size: number;
}

/**
 * Appends batches to the journal through one open file, kept open between batches (a server
 * appends hundreds a second), and reopened when the journal on disk is another file.
 */
export class JournalAppender {
  private fd: number | undefined;
  private fdId: bigint | undefined;
  /**
   * Whether the journal's name is not known durable yet: its directory is synced at the first
   * append through each opening, until that succeeds. Not only for a journal this process makes:
   * the writer that made it may have died before its directory sync, or seen that sync fail, and
   * a line acknowledged in a file whose name a power cut can undo would be lost with it.
   */
  private nameUnsynced = false;

  constructor(
    private readonly path: string,
    private readonly fs: FileSystem,
  ) {}

  /**
   * Appends the lines durably (every byte written, fdatasynced; the file's directory entry too, once)
   * after the journal's `wholeBytes`, cutting a torn tail first. Returns the journal file as it now
   * is. On failure (a full disk) the journal is cut back to `wholeBytes`: what was not acknowledged
   * is not left for a later read to find.
   */
  async append(lines: readonly string[], seen: JournalFile, wholeBytes: number): Promise<JournalFile> {
    const data = Buffer.from(`${lines.join('\n')}\n`);
    let fd: number | undefined;
    try {
      if (this.fd !== undefined && (seen.id === undefined || seen.id !== this.fdId)) this.close();
      if (this.fd === undefined) {
        // O_APPEND: every write lands at the end, also after a short one.
        this.fd = this.fs.openSync(this.path, 'a');
        this.fdId = journalId(this.fs.fstatSync(this.fd, { bigint: true }));
        this.nameUnsynced = true;
      }
      fd = this.fd;
      // Only ever shortened: a size larger than the file would pad it with NUL bytes.
      if (this.fs.fstatSync(fd).size > wholeBytes) this.fs.ftruncateSync(fd, wholeBytes);
      await writeAll(this.fs, fd, data);
      await fdatasync(this.fs, fd);
      if (this.nameUnsynced) {
        syncDirectory(this.path, this.fs);
        this.nameUnsynced = false;
      }
      return { id: this.fdId, size: wholeBytes + data.length };
    } catch (error) {
      // Not durable, so reported as not done: take the lines back out, lest a read find them.
      let takenBack = true;
      if (fd !== undefined) {
        try {
          this.fs.ftruncateSync(fd, wholeBytes);
          this.fs.fdatasyncSync(fd);
        } catch {
          takenBack = false;
        }
      }
      this.close();
      throw takenBack ? storeIoError(this.path, 'append to', error) : storeMaybeWrittenError(this.path, 'append to', error);
    }
  }

  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    this.fdId = undefined;
    if (fd !== undefined) {
      try {
        this.fs.closeSync(fd);
      } catch {
        // A close that fails loses nothing: every append was fdatasynced before it was acknowledged.
      }
    }
  }
}

/** Removes the journal once folded; one left behind (a failure here) is folded again harmlessly. */
export function removeJournal(path: string, fs: FileSystem): void {
  try {
    fs.unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storeIoError(path, 'remove', error);
  }
}
