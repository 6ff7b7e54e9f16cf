import { isPlantsError } from '../../core/errors.js';
import { readPlantJson } from '../../core/plant-json.js';
import type { FileSystem } from '../../fs/file-system.js';
import { readLinesSync } from '../../fs/lines.js';
import { EntriesBuilder, type SortedEntries } from './sorted-entries.js';
import { storeCorruptError, storeIoError } from '../store-errors.js';
import { EMPTY, FORMAT_VERSION, lineId, lineText, MAX_LINE_BYTES, plantLines } from './database-file.js';

const HEADER_LINES = ['{', `  "plantStore": ${FORMAT_VERSION},`, '  "plants": ['].map((text) => Buffer.from(text));
const CLOSING_LINES = ['  ]', '}'].map((text) => Buffer.from(text));
const EMPTY_BYTES = Buffer.from(EMPTY);

/**
 * Each plant's id and where its line starts, in a store file of `size` bytes in our layout open as
 * `fd`, read once, a block at a time. `verify`: the file is not known to be ours, so every line is
 * checked, and undefined is returned for any file not exactly in the layout we write (every plant
 * canonical, in id order, nothing else), for store-file-read.ts to read another way. Without
 * `verify` (a file its index vouches for), only the ids are read.
 */
export function scanStoreFile(fs: FileSystem, fd: number, path: string, size: number, verify: boolean): SortedEntries | undefined {
  const entries = new EntriesBuilder();
  const reading = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw isPlantsError(error) ? error : storeIoError(path, 'read', error);
    }
  };
  if (!verify) {
    const { from, to } = plantLines(size);
    reading(() =>
      readLinesSync(fs, fd, from, to, MAX_LINE_BYTES, (bytes, lineFrom, lineTo, start) => {
        const id = bytes === undefined ? undefined : lineId(bytes, lineFrom, lineTo);
        if (id === undefined) throw storeCorruptError(path, `the line at byte ${start} is not a plant of ours`);
        entries.push(id, start);
      }),
    );
    return entries.build();
  }
  if (size === EMPTY_BYTES.length) {
    const whole = Buffer.allocUnsafe(size);
    const got = reading(() => fs.readSync(fd, whole, 0, size, 0));
    return got === size && whole.equals(EMPTY_BYTES) ? entries.build() : undefined;
  }
  // The lines, in order: HEADER_LINES, plants (`    {...},`, the last without the comma), CLOSING_LINES.
  let line = 0;
  let plantsDone = false;
  let closing = 0;
  let ours = true;
  const same = (bytes: Buffer, from: number, to: number, expected: Buffer | undefined) => expected !== undefined && to - from === expected.length && bytes.compare(expected, 0, expected.length, from, to) === 0;
  const isOurs = (bytes: Buffer, from: number, to: number, start: number): boolean => {
    line += 1;
    if (line <= HEADER_LINES.length) return same(bytes, from, to, HEADER_LINES[line - 1]);
    if (!plantsDone) {
      const id = lineId(bytes, from, to);
      const reading = id === undefined ? undefined : readPlantJson(lineText(bytes, from, to));
      // Not canonical (or not a plant), or out of order: read another way, which says what is wrong.
      if (id === undefined || reading?.plant === undefined || !reading.canonical) return false;
      entries.push(id, start);
      plantsDone = bytes[to - 1] !== 0x2c;
      return entries.ascending;
    }
    closing += 1;
    return same(bytes, from, to, CLOSING_LINES[closing - 1]);
  };
  const whole = reading(() =>
    readLinesSync(fs, fd, 0, size, MAX_LINE_BYTES, (bytes, from, to, start) => {
      ours = bytes !== undefined && isOurs(bytes, from, to, start);
      return ours;
    }),
  );
  if (!ours || whole !== size || !plantsDone || closing !== CLOSING_LINES.length) return undefined;
  return entries.build();
}
