// fs.promises, not node:fs/promises: the property loads it when first used, which a create --local
// never does (~1.5 ms).
import { promises as fs, readFileSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { decodePlantLine, type PlantLine } from './plant-lines.js';
import { storeIoError, storeMaybeWrittenError } from './store-errors.js';
import { syncDirectory } from './sync.js';

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
  try {
    const info = statSync(path, { bigint: true });
    return { ino: info.ino, size: Number(info.size) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ino: undefined, size: 0 };
    throw storeIoError(path, 'read', error);
  }
}

/**
 * Appends batches to the journal through one open file, kept open between batches (a server
 * appends hundreds a second), and reopened when the journal on disk is another file.
 */
export class JournalAppender {
  private handle: FileHandle | undefined;
  private handleIno: bigint | undefined;

  constructor(private readonly path: string) {}

  /**
   * Appends the lines durably (written, fsynced; a new file's directory entry too) after the
   * journal's `wholeBytes`, cutting a torn tail first. Returns the journal file as it now is.
   */
  async append(lines: readonly string[], seen: JournalFile, wholeBytes: number): Promise<JournalFile> {
    const data = Buffer.from(`${lines.join('\n')}\n`);
    let written = false;
    try {
      if (this.handle !== undefined && (seen.ino === undefined || seen.ino !== this.handleIno)) await this.close();
      if (this.handle === undefined) {
        this.handle = await fs.open(this.path, 'a');
        this.handleIno = (await this.handle.stat({ bigint: true })).ino;
      }
      if (seen.size !== wholeBytes) await this.handle.truncate(wholeBytes);
      written = true;
      await this.handle.write(data);
      await this.handle.datasync();
      if (seen.ino === undefined) syncDirectory(this.path);
      return { ino: this.handleIno, size: wholeBytes + data.length };
    } catch (error) {
      // Not durable, so reported as not added: take the lines back out, lest a read find them.
      let takenBack = true;
      if (written) takenBack = await this.handle!.truncate(wholeBytes).then(() => true, () => false);
      await this.close().catch(() => undefined);
      throw takenBack ? storeIoError(this.path, 'append to', error) : storeMaybeWrittenError(this.path, 'append to', error);
    }
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    this.handleIno = undefined;
    await handle?.close();
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

export async function removeJournal(path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storeIoError(path, 'remove', error);
  }
}
