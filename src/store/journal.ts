import type { IdMap } from '../core/id-map.js';
import { INT64_MAX, INT64_MIN } from '../core/int64.js';
import { encodePlant, readPlantJson } from '../core/plant-json.js';
import { fdatasync, syncDirectory, writeAll } from '../fs/durable-file.js';
import { NODE_FS, type FileSystem } from '../fs/file-system.js';
import { statFile, storeCorruptError, storeIoError, storeMaybeWrittenError } from './store-errors.js';

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

const DELETE_LINE = /^\{"delete":(0|-?[1-9][0-9]*)\}$/;

/**
 * What a journal says of an id, its last line winning: where that line starts in the journal (it
 * stays on disk, not in memory: a million-row import held every line, and twice the memory), or
 * the line re-encoded where the journal's was not canonical (a journal edited by hand), or null
 * for deleted.
 */
export type JournalOp = number | string | null;
export type JournalOps = IdMap<JournalOp>;

export interface JournalRead {
  /** Lines read. */
  lines: number;
  /** Where the last whole line ends: a torn tail beyond it is cut before the next append. */
  wholeBytes: number;
}

/** The journal is read in blocks of this size (a longer line, in a block as long as it). */
const READ_BYTES = 1024 * 1024;

/**
 * Reads the journal's whole lines from byte `from` on (0: all of it; more: what was appended since
 * a read up to there) into `ops`, through `fs` as the store's other reads and writes. A block at a
 * time: the journal a large import leaves, read whole, sat in memory beside the store file's index.
 * No journal: nothing.
 */
export function readJournal(path: string, from: number, ops: JournalOps, fs: FileSystem = NODE_FS): JournalRead {
  if (statFile(path, 'journal') === undefined) return { lines: 0, wholeBytes: 0 };
  const fd = reading(path, () => fs.openSync(path, 'r'));
  try {
    const size = reading(path, () => fs.fstatSync(fd).size);
    let lines = 0;
    let block = Buffer.allocUnsafe(Math.min(READ_BYTES, Math.max(0, size - from)));
    // The block holds `filled` bytes of the file from `position` on. Counted in bytes on disk, not
    // in decoded text: appends cut the file to exactly where the whole lines end.
    let position = from;
    let filled = 0;
    while (position + filled < size) {
      if (filled === block.length) {
        const bigger = Buffer.allocUnsafe(Math.min(block.length * 2, size - position));
        block.copy(bigger, 0, 0, filled);
        block = bigger;
      }
      const got = reading(path, () => fs.readSync(fd, block, filled, block.length - filled, position + filled));
      if (got === 0) break;
      filled += got;
      let start = 0;
      for (let end = block.indexOf(10, start); end !== -1 && end < filled; end = block.indexOf(10, start)) {
        lines += 1;
        // Named by its number when the journal was read from its start, else by where it is.
        readLine(path, block.toString('utf8', start, end), position + start, from === 0 ? lines : undefined, ops);
        start = end + 1;
      }
      block.copy(block, 0, start, filled);
      position += start;
      filled -= start;
    }
    return { lines, wholeBytes: position };
  } finally {
    fs.closeSync(fd);
  }
}

/** Records in `ops` what a journal line says of its id; a line that says nothing valid makes the store corrupt. */
function readLine(path: string, text: string, position: number, number: number | undefined, ops: JournalOps): void {
  const deleted = DELETE_LINE.exec(text);
  if (deleted !== null) {
    const id = BigInt(deleted[1] as string);
    // The pattern takes any number of digits: an id no plant can have is as corrupt as an invalid plant.
    if (id < INT64_MIN || id > INT64_MAX) throw storeCorruptError(path, `${lineName(number, position)}: the deleted id must be between ${INT64_MIN} and ${INT64_MAX}, got ${id}`);
    ops.set(id, null);
    return;
  }
  const reading = readPlantJson(text);
  if (reading.plant === undefined) {
    throw storeCorruptError(path, reading.notJson !== undefined ? `${lineName(number, position)} is not JSON (${reading.notJson})` : `${lineName(number, position)}: ${reading.invalid.message}`);
  }
  ops.set(reading.plant.id, reading.canonical ? position : encodePlant(reading.plant));
}

function lineName(number: number | undefined, position: number): string {
  return number !== undefined ? `line ${number}` : `the line at byte ${position}`;
}

/** A read of the journal, its failure reported as the store's. */
function reading<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw storeIoError(path, 'read', error);
  }
}

/**
 * Reads lines of the journal by where they start, a block at a time, through a file kept open
 * while the journal is the same file. Only bytes below the whole lines' end are ever read: a torn
 * tail beyond it may be cut and written over by the next append.
 */
export class JournalLines {
  private fd: number | undefined;
  private ino: bigint | undefined;
  private block = Buffer.alloc(0);
  private blockStart = 0;

  constructor(
    private readonly path: string,
    private readonly fs: FileSystem = NODE_FS,
  ) {}

  /** The line at `start` of the journal `file`, whose whole lines end at `wholeBytes`. */
  lineAt(start: number, file: JournalFile, wholeBytes: number): string {
    if (this.fd === undefined || this.ino !== file.ino) this.open(file);
    let offset = start - this.blockStart;
    let end = offset >= 0 && offset < this.block.length ? this.block.indexOf(10, offset) : -1;
    if (end === -1) {
      offset = 0;
      for (let size = 64 * 1024; ; size *= 2) {
        const length = Math.min(size, wholeBytes - start);
        const block = Buffer.allocUnsafe(length);
        let got: number;
        try {
          got = this.fs.readSync(this.fd as number, block, 0, length, start);
        } catch (error) {
          throw storeIoError(this.path, 'read', error);
        }
        this.block = block.subarray(0, got);
        this.blockStart = start;
        end = this.block.indexOf(10);
        if (end !== -1) break;
        if (got < length || length === wholeBytes - start) throw storeIoError(this.path, 'read', new Error(`no whole line at byte ${start}`));
      }
    }
    return this.block.toString('utf8', offset, end);
  }

  close(): void {
    if (this.fd !== undefined) this.fs.closeSync(this.fd);
    this.fd = undefined;
    this.ino = undefined;
    this.block = Buffer.alloc(0);
  }

  private open(file: JournalFile): void {
    this.close();
    try {
      this.fd = this.fs.openSync(this.path, 'r');
      this.ino = this.fs.fstatSync(this.fd, { bigint: true }).ino;
    } catch (error) {
      throw storeIoError(this.path, 'read', error);
    }
    // Another file than the one the snapshot saw: the snapshot is read again before it is used.
    if (this.ino !== file.ino) throw storeIoError(this.path, 'read', new Error('the journal changed while it was read'));
  }
}

/** The journal file as last seen: its inode (undefined: no file) and size (a torn tail included). */
export interface JournalFile {
  ino: bigint | undefined;
  size: number;
}

export function statJournal(path: string): JournalFile {
  const info = statFile(path, 'journal');
  return info === undefined ? { ino: undefined, size: 0 } : { ino: info.ino, size: Number(info.size) };
}

/**
 * Appends batches to the journal through one open file, kept open between batches (a server
 * appends hundreds a second), and reopened when the journal on disk is another file.
 */
export class JournalAppender {
  private fd: number | undefined;
  private fdIno: bigint | undefined;

  constructor(
    private readonly path: string,
    private readonly fs: FileSystem = NODE_FS,
  ) {}

  /**
   * Appends the lines durably (every byte written, fdatasynced; a new file's directory entry too)
   * after the journal's `wholeBytes`, cutting a torn tail first. Returns the journal file as it now
   * is. On failure (a full disk) the journal is cut back to `wholeBytes`: what was not acknowledged
   * is not left for a later read to find.
   */
  async append(lines: readonly string[], seen: JournalFile, wholeBytes: number): Promise<JournalFile> {
    const data = Buffer.from(`${lines.join('\n')}\n`);
    let fd: number | undefined;
    try {
      if (this.fd !== undefined && (seen.ino === undefined || seen.ino !== this.fdIno)) this.close();
      if (this.fd === undefined) {
        // O_APPEND: every write lands at the end, also after a short one.
        this.fd = this.fs.openSync(this.path, 'a');
        this.fdIno = this.fs.fstatSync(this.fd, { bigint: true }).ino;
      }
      fd = this.fd;
      // Only ever shortened: a size larger than the file would pad it with NUL bytes.
      if (this.fs.fstatSync(fd).size > wholeBytes) this.fs.ftruncateSync(fd, wholeBytes);
      await writeAll(this.fs, fd, data);
      await fdatasync(this.fs, fd);
      if (seen.ino === undefined) syncDirectory(this.path, this.fs);
      return { ino: this.fdIno, size: wholeBytes + data.length };
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
    this.fdIno = undefined;
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
export function removeJournal(path: string, fs: FileSystem = NODE_FS): void {
  try {
    fs.unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storeIoError(path, 'remove', error);
  }
}
