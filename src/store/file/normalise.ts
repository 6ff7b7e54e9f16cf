import { jsonNumberText, parseJson } from '../../core/json.js';
import { checkNewPlant, invalidPlant } from '../../core/new-plant.js';
import { encodePlant } from '../../core/plant-json.js';
import type { FileSystem } from '../../fs/file-system.js';
import { storeCorruptError, storeIoError } from '../store-errors.js';
import { FORMAT_VERSION, DatabaseWriter } from './database-file.js';
import { DatabaseReader, memoryBytes } from './database-reader.js';
import { EntriesBuilder, type SortedEntries } from './sorted-entries.js';

/**
 * A database file no wal-index vouches for, open as `fd` (edited by hand, copied, or never
 * indexed): read whole with one parse, through the lossless parser (an int64 id keeps every
 * digit), every plant checked as any input is, and laid out in memory as a checkpoint writes it:
 * one canonical line a plant, in id order. Its snapshot reads it so, as it reads a file its index
 * vouches for: one reader, of one layout. Where the store may be written, a checkpoint then writes
 * it to disk with its wal-index (file-store.ts), so that every reader after this one finds it in
 * that layout. A file that is not ours, or holds an invalid plant or a repeated id, is refused
 * (`store_corrupt`) before anything is written, and never overwritten. Closes `fd`.
 */
export function readDatabaseWhole(fs: FileSystem, fd: number, path: string, size: number): DatabaseReader {
  let text: string;
  try {
    const bytes = Buffer.allocUnsafe(size);
    let got = 0;
    for (let read = -1; got < size && read !== 0; got += read) read = fs.readSync(fd, bytes, got, size - got, got);
    text = bytes.toString('utf8', 0, got);
  } catch (error) {
    throw storeIoError(path, 'read', error);
  } finally {
    fs.closeSync(fd);
  }
  return normalised(text, path);
}

/** The database file of `text`, in any JSON layout of the documented shape, checked, in ours. */
function normalised(text: string, path: string): DatabaseReader {
  const { lines, order } = checkedLines(text, path);
  // Written as a checkpoint writes it, in chunks held as they are: no copy of the whole joined.
  const chunks: Buffer[] = [];
  const starts = new EntriesBuilder();
  const writer = new DatabaseWriter((chunk) => chunks.push(Buffer.from(chunk)), (id, start) => starts.push(id, start));
  for (let i = 0; i < order.size; i += 1) writer.text(order.idAt(i), lines[order.valueAt(i)] as string);
  writer.end();
  return new DatabaseReader(memoryBytes(chunks), path, order.size, starts.build());
}

/**
 * Each plant of the document `text`, checked, as its canonical line, and their order by id (the
 * position of each id's line); the parsed document is left behind here, for the collector, before
 * the file is laid out.
 */
function checkedLines(text: string, path: string): { lines: string[]; order: SortedEntries } {
  let document: unknown;
  try {
    // A byte order mark, as some editors save UTF-8 with: RFC 8259 lets a parser ignore it.
    document = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    throw storeCorruptError(path, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof document !== 'object' || document === null || !('plantStore' in document) || !('plants' in document)) {
    throw storeCorruptError(path, 'not a plants store file (no "plantStore" marker)');
  }
  const version = jsonNumberText(document.plantStore);
  if (version !== String(FORMAT_VERSION)) {
    throw storeCorruptError(path, `unsupported format version ${version ?? String(document.plantStore)}`);
  }
  if (!Array.isArray(document.plants)) throw storeCorruptError(path, '"plants" is not an array');
  const lines: string[] = [];
  const positions = new EntriesBuilder();
  document.plants.forEach((entry: unknown, index: number) => {
    const { plant, issues } = checkNewPlant(entry);
    if (plant === undefined) throw storeCorruptError(path, `plants[${index}]: ${invalidPlant(issues).message}`);
    positions.push(plant.id, index);
    lines.push(encodePlant(plant));
  });
  const order = positions.build();
  // In id order, ties by position: the second of two equal ids is the one that repeats.
  for (let i = 1; i < order.size; i += 1) {
    const id = order.idAt(i);
    if (id === order.idAt(i - 1)) throw storeCorruptError(path, `plants[${order.valueAt(i)}]: id ${id} appears twice`);
  }
  return { lines, order };
}
