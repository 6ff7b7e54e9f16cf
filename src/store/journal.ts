import { readFileSync, unlinkSync } from 'node:fs';
import { fdatasync, NODE_FS, syncDirectory, writeAll, type FileSystem } from './durable-file.js';
import { decodePlantLine, type PlantLine } from './plant-lines.js';
import { statFile, storeIoError, storeMaybeWrittenError } from './store-errors.js';

/**
 * `<store>.journal`: plants appended since the store file was last written, one JSON line each.
 * Appending a batch costs O(batch), where rewriting the store costs O(store): this is what lets a
 * server answer thousands of durable creates a second. A batch is acknowledged only after its
 * lines are fsynced; a crash mid-append leaves a torn last line, which was never acknowledged and
 * is dropped. The journal is folded into the store file now and then (compaction), after which it
 * is removed; lines for ids the store file already holds (a crash between the two) are skipped.
 */
/** The journal beside a store file. */
export function journalPathOf(storePath: string): string {
  return `${storePath}.journal`;
}

export interface JournalState {
  plants: PlantLine[];
  /** Bytes up to the end of the last whole line: a torn tail beyond it is cut before appending. */
  wholeBytes: number;
}

export function readJournal(path: string): JournalState {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { plants: [], wholeBytes: 0 };
    throw storeIoError(path, 'read', error);
  }
  // Counted in bytes on disk, not in decoded text: appends cut the file to exactly this length.
  const wholeBytes = bytes.lastIndexOf(10) + 1;
  const lines = bytes.toString('utf8', 0, wholeBytes).split('\n');
  lines.pop();
  const where = (index: number) => `line ${index + 1}`;
  const plants: PlantLine[] = [];
  for (let index = 0; index < lines.length; index += 1) plants.push(decodePlantLine(lines[index] as string, path, index, where));
  return { plants, wholeBytes };
}

/** The journal file as last seen: its inode (undefined: no file) and size (a torn tail included). */
export interface JournalFile {
  ino: bigint | undefined;
  size: number;
}

export function statJournal(path: string): JournalFile {
  const info = statFile(path);
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
      // Not durable, so reported as not added: take the lines back out, lest a read find them.
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

/** The whole lines of the journal as bytes, unchecked: for folding a journal already read and checked. */
export function journalBytes(path: string, wholeBytes: number): Buffer {
  if (wholeBytes === 0) return Buffer.alloc(0);
  try {
    return readFileSync(path).subarray(0, wholeBytes);
  } catch (error) {
    throw storeIoError(path, 'read', error);
  }
}

export function removeJournal(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storeIoError(path, 'remove', error);
  }
}
