import { jsonNumberText, parseJson } from '../../core/json.js';
import { checkNewPlant } from '../../core/new-plant.js';
import { canonicalPlant, encodePlant, plainLineId } from '../../core/plant-json.js';
import type { FileSystem } from '../../fs/file-system.js';
import { readAtOf, readLinesSync, type ReadAt } from '../../fs/lines.js';
import { storeCorruptError, storeIoError } from '../store-errors.js';
import {
  DatabaseWriter,
  EMPTY,
  FORMAT_VERSION,
  HEAD,
  INDENT,
  LAST_LINE_END,
  MAX_LINE_BYTES,
  plantLines,
} from './database-file.js';
import { DatabaseReader, fileBytes, memoryBytes } from './database-reader.js';
import { EntriesBuilder, type SortedEntries } from './sorted-entries.js';

/**
 * A database file no wal-index vouches for, open as `fd` (a store copied or restored, its wal-index
 * deleted, a file edited by hand or never indexed): first checked in one pass, a block at a time,
 * holding nothing of it. One exactly in our layout (canonicalPlants; the common case: a store
 * copied) is then read where needed, as one a wal-index vouches for, and given one
 * (store-files.ts). Any other is read whole (readDatabaseWhole), and `readWhole` says so: a
 * checkpoint writes it in our layout. The reader owns `fd`; closed here on a failure.
 */
export function readUnvouched(
  fs: FileSystem,
  fd: number,
  path: string,
  size: number,
): { reader: DatabaseReader; readWhole: boolean } {
  let plants: number | undefined;
  try {
    plants = canonicalPlants(readAtOf(fs, fd), size);
  } catch (error) {
    fs.closeSync(fd);
    throw storeIoError(path, 'read', error);
  }
  if (plants !== undefined) {
    return { reader: new DatabaseReader(fileBytes(fs, fd, size), path, plants), readWhole: false };
  }
  return { reader: readDatabaseWhole(fs, fd, path, size), readWhole: true };
}

const HEAD_BYTES = Buffer.from(`${HEAD}\n`);
const TAIL_BYTES = Buffer.from(LAST_LINE_END);
const EMPTY_BYTES = Buffer.from(EMPTY);
const INDENT_BYTES = Buffer.from(INDENT);

/**
 * How many plants the file read through `read`, of `size` bytes, holds, if it is exactly as a
 * checkpoint writes it: the head, each plant's line byte for byte what encodePlant writes for the
 * plant it parses to (checked as any input is), a comma after each but the last, ids strictly
 * ascending, the tail. Undefined for any other file, valid or not: read whole, it says what is wrong.
 */
function canonicalPlants(read: ReadAt, size: number): number | undefined {
  if (size === EMPTY_BYTES.length) return holds(read, 0, EMPTY_BYTES) ? 0 : undefined;
  const { from, to } = plantLines(size);
  if (to <= from || !holds(read, 0, HEAD_BYTES) || !holds(read, size - TAIL_BYTES.length, TAIL_BYTES)) return undefined;
  let plants = 0;
  let last: number | bigint | undefined;
  let ours = true;
  let ended = false;
  const whole = readLinesSync(read, from, to, MAX_LINE_BYTES, (bytes, lineFrom, lineTo) => {
    const comma = bytes !== undefined && bytes[lineTo - 1] === 0x2c;
    const id = bytes === undefined || ended ? undefined : plantLineId(bytes, lineFrom, comma ? lineTo - 1 : lineTo);
    if (id === undefined || (last !== undefined && !(id > last))) return (ours = false);
    last = id;
    plants += 1;
    ended = !comma;
    return true;
  });
  return ours && ended && whole === to ? plants : undefined;
}

/** The id of `bytes[from, to)` if it is an indent and a plant's canonical line; else undefined. */
function plantLineId(bytes: Buffer, from: number, to: number): number | bigint | undefined {
  const at = from + INDENT.length;
  if (to <= at || bytes.compare(INDENT_BYTES, 0, INDENT.length, from, at) !== 0) return undefined;
  // Nearly every line: plain ASCII, checked on its bytes.
  const plain = plainLineId(bytes, at, to);
  if (plain !== undefined) return plain;
  const text = bytes.toString('utf8', at, to);
  const plant = canonicalPlant(text);
  // Compared as bytes too: a byte that is no UTF-8 reads as U+FFFD, which encodes otherwise.
  return plant !== undefined && Buffer.from(text).equals(bytes.subarray(at, to)) ? plant.id : undefined;
}

/** Whether the bytes of the file at `at` are `expected`. */
function holds(read: ReadAt, at: number, expected: Buffer): boolean {
  const found = Buffer.allocUnsafe(expected.length);
  return read(found, 0, found.length, at) === found.length && found.equals(expected);
}

/**
 * A database file no wal-index vouches for and not in our layout, open as `fd` (edited by hand,
 * written by another program): read whole with one parse, through the lossless parser (an int64
 * id keeps every digit), every plant checked as any input is (its zod schema), and laid out in memory as a
 * checkpoint writes it: one canonical line a plant, in id order. Its snapshot reads it so, as it
 * reads a file its index vouches for: one reader, of one layout. Where the store may be written, a
 * checkpoint then writes it to disk with its wal-index (file-store.ts), so that every reader after
 * this one finds it in that layout. A file that is not ours, or holds an invalid plant or a
 * repeated id, is refused (`store_corrupt`) before anything is written, and never overwritten.
 * Closes `fd`.
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
  const writer = new DatabaseWriter(
    (chunk) => chunks.push(Buffer.from(chunk)),
    (id, start) => starts.push(id, start),
  );
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
    const { plant, invalid } = checkNewPlant(entry);
    if (plant === undefined) throw storeCorruptError(path, `plants[${index}]: ${invalid.message}`);
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
