import { open, readFile, unlink } from 'node:fs/promises';
import { decodePlantLine, type PlantLine } from './plant-lines.js';
import { storeIoError } from './store-errors.js';
import { syncDirectory } from './sync.js';

/**
 * `<store>.journal`: plants appended since the store file was last written, one JSON line each.
 * Appending a batch costs O(batch), where rewriting the store costs O(store): this is what lets a
 * server answer thousands of durable creates a second. A batch is acknowledged only after its
 * lines are fsynced; a crash mid-append leaves a torn last line, which was never acknowledged and
 * is dropped. The journal is folded into the store file now and then (compaction), after which it
 * is removed; lines for ids the store file already holds (a crash between the two) are skipped.
 */
export interface JournalState {
  plants: PlantLine[];
  /** Bytes up to the end of the last whole line: a torn tail beyond it is cut before appending. */
  wholeBytes: number;
}

export async function readJournal(path: string): Promise<JournalState> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { plants: [], wholeBytes: 0 };
    throw storeIoError(path, 'read', error);
  }
  const end = text.lastIndexOf('\n') + 1;
  const lines = text.slice(0, end).split('\n');
  lines.pop();
  const plants = lines.map((line, index) => decodePlantLine(line, path, `line ${index + 1}`));
  return { plants, wholeBytes: Buffer.byteLength(text.slice(0, end)) };
}

/** Appends the plants durably: written, fsynced (and the file's directory entry too, when new). */
export async function appendJournal(path: string, lines: readonly string[], wholeBytes: number): Promise<number> {
  const data = Buffer.from(`${lines.join('\n')}\n`);
  try {
    const handle = await open(path, 'a');
    try {
      const { size } = await handle.stat();
      if (size !== wholeBytes) await handle.truncate(wholeBytes);
      await handle.write(data);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    if (wholeBytes === 0) await syncDirectory(path);
    return wholeBytes + data.length;
  } catch (error) {
    throw storeIoError(path, 'append to', error);
  }
}

/** The whole lines of the journal as bytes, unchecked: for folding a journal already read and checked. */
export async function journalBytes(path: string, wholeBytes: number): Promise<Buffer> {
  if (wholeBytes === 0) return Buffer.alloc(0);
  try {
    return (await readFile(path)).subarray(0, wholeBytes);
  } catch (error) {
    throw storeIoError(path, 'read', error);
  }
}

export async function removeJournal(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw storeIoError(path, 'remove', error);
  }
}
