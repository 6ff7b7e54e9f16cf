import { jsonNumberText, parseJson } from '../../core/json.js';
import { encodePlant } from '../../core/plant-json.js';
import { checkNewPlant, invalidPlant } from '../../core/new-plant.js';
import type { FileSystem } from '../../fs/file-system.js';
import { EntriesBuilder } from './sorted-entries.js';
import { storeCorruptError, storeIoError } from '../store-errors.js';
import { FORMAT_VERSION } from './database-file.js';
import { scanStoreFile } from './store-file-scan.js';
import { FileView, MemoryView, type StoreFileView } from './database-reader.js';

/**
 * A store file no index vouches for (store-index.ts), open as `fd`: read whole, once, and every
 * plant checked as any input is. One in the layout we write is then read where needed, as one its
 * index vouches for; any other JSON document of the documented shape (edited by hand, written by
 * an older plants in another order) is held in memory, and the next write rewrites it in our
 * layout. A file that is not ours, or holds an invalid plant or a repeated id, is refused
 * (`store_corrupt`), never overwritten. The view owns `fd`.
 */
export function readStoreFile(fs: FileSystem, fd: number, path: string, size: number): StoreFileView {
  const entries = scanStoreFile(fs, fd, path, size, true);
  if (entries !== undefined) return new FileView(fs, fd, path, size, entries.size, entries);
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
  return anyLayout(text, path);
}

/** A store file in a layout of its own, read whole with the lossless parser, each plant checked. */
function anyLayout(text: string, path: string): MemoryView {
  let document: unknown;
  try {
    document = parseJson(text);
  } catch (error) {
    throw storeCorruptError(path, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof document !== 'object' || document === null || !('plantStore' in document) || !('plants' in document)) {
    throw storeCorruptError(path, 'not a plants store file (no "plantStore" marker)');
  }
  const version = jsonNumberText(document.plantStore);
  if (version !== String(FORMAT_VERSION)) throw storeCorruptError(path, `unsupported format version ${version ?? String(document.plantStore)}`);
  if (!Array.isArray(document.plants)) throw storeCorruptError(path, '"plants" is not an array');
  const lines: string[] = [];
  const entries = new EntriesBuilder();
  document.plants.forEach((entry: unknown, index: number) => {
    const { plant, issues } = checkNewPlant(entry);
    if (plant === undefined) throw storeCorruptError(path, `plants[${index}]: ${invalidPlant(issues).message}`);
    entries.push(plant.id, index);
    lines.push(encodePlant(plant));
  });
  const sorted = entries.build();
  // In id order, ties by position: the second of two equal ids is the one that repeats.
  for (let i = 1; i < sorted.size; i += 1) {
    if (sorted.idAt(i) === sorted.idAt(i - 1)) throw storeCorruptError(path, `plants[${sorted.valueAt(i)}]: id ${sorted.idAt(i)} appears twice`);
  }
  return new MemoryView(sorted, lines);
}
