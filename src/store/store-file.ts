import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { jsonNumberText, parseJson } from '../core/json.js';
import { encodePlant, readPlantJson } from '../core/plant-json.js';
import type { NewPlant } from '../core/schemas.js';
import { parseNewPlant } from '../core/validate.js';
import { statFile, storeCorruptError, storeIoError } from './store-errors.js';
import { StoreFileIndex, type WrittenLines } from './store-file-index.js';

/**
 * The store file format, version 1:
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
 * never overwritten. Any JSON document of this shape is read (a file edited by hand, or written
 * by an older plants in another order); the layout above, the one we write, is read line by line.
 *
 * Beside it, `<store>.journal` holds what changed since (journal.ts).
 */
export const FORMAT_VERSION = 1;

const HEAD = `{\n  "plantStore": ${FORMAT_VERSION},\n  "plants": [`;
const TAIL = ']\n}\n';
const INDENT = '    ';
const EMPTY = `${HEAD}${TAIL}`;
const LAST_LINE_END = `\n  ${TAIL}`;

/** A store file of these plants, in the order given. */
export function encodeStore(plants: Iterable<NewPlant>): string {
  const lines = [...plants].map(encodePlant);
  return lines.length === 0 ? EMPTY : `${HEAD}\n${INDENT}${lines.join(`,\n${INDENT}`)}${LAST_LINE_END}`;
}

/** A change a fold makes to the store file: a plant's canonical line, or its deletion (null). */
export interface LineChange {
  id: bigint;
  line: string | null;
}

const FIRST_SEPARATOR = `\n${INDENT}`;
const SEPARATOR = `,\n${INDENT}`;

/**
 * Writes, through `write`, the store file of the plants of `base` with `changes` (in id order)
 * made to them: `count` plants in all. The runs of `base`'s plants between two changes are copied
 * as they lie in its file (StoreFileIndex.copyLines), so a fold costs about a copy of the file and
 * the lines of the journal. Returns where each line went, so that the new file can be read by
 * position without being read again.
 */
export function writeStoreFile(write: (chunk: string | Uint8Array) => void, base: StoreFileIndex, changes: Iterable<LineChange>, count: number): WrittenLines {
  const written: WrittenLines = { ids: new BigInt64Array(count), starts: new Float64Array(count), lengths: new Uint32Array(count) };
  let position = Buffer.byteLength(HEAD);
  let index = 0;
  let next = 0;
  write(HEAD);
  const separator = () => (index === 0 ? FIRST_SEPARATOR : SEPARATOR);
  const copyTo = (to: number) => {
    if (to <= next) return;
    const before = separator();
    write(before);
    position += before.length;
    if (index + to - next > count) throw new Error(`writeStoreFile was told of ${count} plants and given more`);
    position += base.copyLines(next, to, SEPARATOR, write, written, index, position);
    index += to - next;
    next = to;
  };
  for (const { id, line } of changes) {
    const after = base.after(id);
    const replaced = after > 0 && base.idAt(after - 1) === id;
    copyTo(replaced ? after - 1 : after);
    if (replaced) next = after;
    if (line === null) continue;
    if (index >= count) throw new Error(`writeStoreFile was told of ${count} plants and given more`);
    const before = separator();
    write(before);
    write(line);
    const length = Buffer.byteLength(line);
    written.ids[index] = id;
    written.starts[index] = position + before.length;
    written.lengths[index] = length;
    position += before.length + length;
    index += 1;
  }
  copyTo(base.size);
  if (index !== count) throw new Error(`writeStoreFile was told of ${count} plants and given ${index}`);
  write(index === 0 ? TAIL : LAST_LINE_END);
  return written;
}

/** Read in blocks of this size, whatever the size of the file. */
const READ_BYTES = 1024 * 1024;

/**
 * The index of a store file, undefined when there is none. Reads the file once, a block at a time,
 * checking every plant as any input is checked; a file that is not ours is refused
 * (`store_corrupt`). A file in our layout is indexed by the position of its lines, and stays open
 * to read them; any other (edited by hand) is read whole and held in memory, in id order, until the
 * next fold writes it in our layout.
 */
export function indexStoreFile(path: string): StoreFileIndex | undefined {
  if (statFile(path) === undefined) return undefined;
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw storeIoError(path, 'read', error);
  }
  let text: string;
  try {
    const index = indexOurLayout(fd, path);
    if (index !== undefined) return index;
    text = readWhole(fd, path);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  closeSync(fd);
  return indexAnyLayout(text, path);
}

/**
 * The index of a file in exactly the layout we write, every line a canonical plant; undefined for
 * any other layout. Plants out of id order (written by an older plants) are put in order here.
 */
function indexOurLayout(fd: number, path: string): StoreFileIndex | undefined {
  const lines = new LineColumns();
  let lastId: bigint | undefined;
  let inOrder = true;
  // The lines, in order: HEADER_LINES, then plants (`    {...},`, the last without the comma), then
  // the closing lines; or, for an empty store, its own header.
  let line = 0;
  let plantsDone = false;
  let closing = 0;
  const onLine = (block: Buffer, from: number, to: number, position: number): boolean => {
    line += 1;
    if (line <= HEADER_LINES.length) {
      const expected = HEADER_LINES[line - 1] as Buffer;
      if (line === HEADER_LINES.length && to - from === EMPTY_PLANTS.length && block.compare(EMPTY_PLANTS, 0, EMPTY_PLANTS.length, from, to) === 0) {
        plantsDone = true;
        closing = 1;
        return true;
      }
      return to - from === expected.length && block.compare(expected, 0, expected.length, from, to) === 0;
    }
    if (!plantsDone) {
      // `    {` at least, and a plant that ends in `}` or `},`.
      if (to - from < INDENT.length + 2 || block[from] !== 0x20 || block[from + 1] !== 0x20 || block[from + 2] !== 0x20 || block[from + 3] !== 0x20) return false;
      const last = block[to - 1] !== 0x2c;
      const end = last ? to : to - 1;
      const reading = readPlantJson(block.toString('utf8', from + INDENT.length, end));
      // Not canonical (or not a plant): read as any layout, which also says precisely what is wrong.
      if (reading.plant === undefined || !reading.canonical) return false;
      const id = reading.plant.id;
      if (lastId !== undefined && id <= lastId) inOrder = false;
      lastId = id;
      lines.push(id, position + INDENT.length, end - from - INDENT.length);
      plantsDone = last;
      return true;
    }
    const expected = CLOSING_LINES[closing];
    closing += 1;
    return expected !== undefined && to - from === expected.length && block.compare(expected, 0, expected.length, from, to) === 0;
  };
  if (!forEachLine(fd, path, onLine) || !plantsDone || closing !== CLOSING_LINES.length) return undefined;
  const { ids, starts, lengths } = lines.trimmed();
  if (inOrder) return StoreFileIndex.inFile(fd, ids, starts, lengths);
  const order = idOrder([...ids], (position) => `plants[${position}]`, path) ?? [];
  return StoreFileIndex.inFile(
    fd,
    BigInt64Array.from(order, (position) => ids[position] as bigint),
    Float64Array.from(order, (position) => starts[position] as number),
    Uint32Array.from(order, (position) => lengths[position] as number),
  );
}

/**
 * The ids and places of a store file's lines as they are read, in typed arrays that double as
 * they fill: a million plants make no array of a million BigInts (and their garbage) on the way.
 */
class LineColumns {
  private ids = new BigInt64Array(1024);
  private starts = new Float64Array(1024);
  private lengths = new Uint32Array(1024);
  private size = 0;

  push(id: bigint, start: number, length: number): void {
    if (this.size === this.ids.length) {
      const ids = new BigInt64Array(this.size * 2);
      const starts = new Float64Array(this.size * 2);
      const lengths = new Uint32Array(this.size * 2);
      ids.set(this.ids);
      starts.set(this.starts);
      lengths.set(this.lengths);
      [this.ids, this.starts, this.lengths] = [ids, starts, lengths];
    }
    this.ids[this.size] = id;
    this.starts[this.size] = start;
    this.lengths[this.size] = length;
    this.size += 1;
  }

  trimmed(): WrittenLines {
    return { ids: this.ids.slice(0, this.size), starts: this.starts.slice(0, this.size), lengths: this.lengths.slice(0, this.size) };
  }
}


const HEADER_LINES = ['{', `  "plantStore": ${FORMAT_VERSION},`, '  "plants": ['].map((text) => Buffer.from(text));
const EMPTY_PLANTS = Buffer.from('  "plants": []');
const CLOSING_LINES = ['  ]', '}'].map((text) => Buffer.from(text));

/**
 * Calls `onLine` with each line of the file open as `fd` (its block, the line's bounds in it
 * without the newline, and its byte position in the file), reading a block at a time, until it
 * returns false; false then, or if the file does not end with a newline.
 */
function forEachLine(fd: number, path: string, onLine: (block: Buffer, from: number, to: number, position: number) => boolean): boolean {
  let block = Buffer.allocUnsafe(READ_BYTES);
  // Bytes of a line begun in the block before, at the start of `block`.
  let carried = 0;
  for (let position = 0; ; ) {
    if (carried === block.length) {
      // A line longer than a block: a bigger block.
      const bigger = Buffer.allocUnsafe(block.length * 2);
      block.copy(bigger, 0, 0, carried);
      block = bigger;
    }
    let got: number;
    try {
      got = readSync(fd, block, carried, block.length - carried, position + carried);
    } catch (error) {
      throw storeIoError(path, 'read', error);
    }
    if (got === 0) return carried === 0;
    const filled = carried + got;
    let from = 0;
    for (let end = block.indexOf(10, carried); end !== -1 && end < filled; end = block.indexOf(10, from)) {
      if (!onLine(block, from, end, position + from)) return false;
      from = end + 1;
    }
    block.copy(block, 0, from, filled);
    position += from;
    carried = filled - from;
  }
}

function readWhole(fd: number, path: string): string {
  try {
    const size = fstatSync(fd).size;
    const bytes = Buffer.allocUnsafe(size);
    let got = 0;
    while (got < size) {
      const read = readSync(fd, bytes, got, size - got, got);
      if (read === 0) break;
      got += read;
    }
    return bytes.toString('utf8', 0, got);
  } catch (error) {
    throw storeIoError(path, 'read', error);
  }
}

/** A store file in a layout of its own, read whole with the lossless parser, each plant checked. */
function indexAnyLayout(text: string, path: string): StoreFileIndex {
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
  const plants = document.plants.map((entry: unknown, index: number) => {
    try {
      const plant = parseNewPlant(entry);
      return { id: plant.id, line: encodePlant(plant) };
    } catch (error) {
      throw storeCorruptError(path, `plants[${index}]: ${(error as Error).message}`);
    }
  });
  const order = idOrder(plants.map((plant) => plant.id), (position) => `plants[${position}]`, path);
  return StoreFileIndex.inMemory(order === undefined ? plants : order.map((position) => plants[position] as (typeof plants)[number]));
}

/**
 * The positions of `ids` in ascending id order (undefined if they are in order already); an id
 * that appears twice makes the store corrupt, named by where its second appearance is.
 */
function idOrder(ids: bigint[], where: (position: number) => string, path: string): number[] | undefined {
  const order = ids.map((_, position) => position).sort((a, b) => {
    const x = ids[a] as bigint;
    const y = ids[b] as bigint;
    return x < y ? -1 : x > y ? 1 : a - b;
  });
  for (let i = 1; i < order.length; i += 1) {
    const id = ids[order[i] as number] as bigint;
    if (id === ids[order[i - 1] as number]) throw storeCorruptError(path, `${where(order[i] as number)}: id ${id} appears twice`);
  }
  return order.every((position, i) => position === i) ? undefined : order;
}
