import { PlantsError } from '../core/errors.js';
import { thousands } from '../core/printable.js';
import { LineCutter } from '../fs/lines.js';

/**
 * The most bytes one row of an import may take: an NDJSON line, a CSV record, an element of a JSON
 * array. The same as a request body's limit in plants serve; the README documents it.
 */
export const MAX_ROW_BYTES = 64 * 1024;

/**
 * One row's bytes as cut from the input, and the line it starts on. `bytes` is undefined for a row
 * over MAX_ROW_BYTES: its bytes were dropped as they came, so that no row, however long (a 100 MB
 * line, /dev/zero), holds more memory than the limit.
 */
export interface RawRecord {
  bytes: Buffer | undefined;
  line: number;
}

/** The bytes of the record being cut, up to the limit; past it, only that it was over. */
class Pending {
  private parts: Buffer[] = [];
  private size = 0;
  private over = false;

  get empty(): boolean {
    return this.size === 0 && !this.over;
  }

  add(bytes: Buffer): void {
    if (this.over || bytes.length === 0) return;
    if (this.size + bytes.length > MAX_ROW_BYTES) {
      this.over = true;
      this.parts = [];
      return;
    }
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  take(): Buffer | undefined {
    const bytes = this.over
      ? undefined
      : this.parts.length === 1
        ? (this.parts[0] as Buffer)
        : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.over = false;
    return bytes;
  }
}

function unreadable(message: string): PlantsError {
  return new PlantsError('unreadable_input', message);
}

/**
 * How far the records handed out so far reach into the input: the records, and the bytes through
 * the end of the last one. An import's progress line reads it (read-ahead and records not yet
 * handed out do not count).
 */
export interface Consumed {
  bytes: number;
  records: number;
}

/** Counts a run of records about to be handed out, whose last one ends at byte `end` of the input. */
function handOut(consumed: Consumed, run: readonly RawRecord[], end: number): void {
  consumed.bytes = end;
  consumed.records += run.length;
}

/**
 * An input's chunks, refused at its first NUL byte: no text format we read has one (JSON and CSV
 * write none), while binary files and UTF-16 text are full of them, and /dev/zero is nothing else.
 */
async function* textChunks(input: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  let seen = 0;
  for await (const chunk of input) {
    const nul = chunk.indexOf(0);
    if (nul !== -1)
      throw unreadable(`not text: a NUL byte at byte ${thousands(seen + nul)} (a binary file, or text in UTF-16?)`);
    seen += chunk.length;
    yield chunk;
  }
}

/** NDJSON lines, in runs of all the lines each chunk completes, cut by the one line reader (fs/lines.ts). */
export async function* ndjsonRecords(
  input: AsyncIterable<Buffer>,
  consumed: Consumed = { bytes: 0, records: 0 },
): AsyncIterable<RawRecord[]> {
  let run: RawRecord[] = [];
  let line = 0;
  let chunk: Buffer | undefined;
  const cutter = new LineCutter(MAX_ROW_BYTES, (bytes, from, to) => {
    line += 1;
    // A run is handed out after its chunk: a line in the chunk is kept as a view of it; one begun
    // in a chunk before is in the cutter's own buffer, which the next line reuses, so it is copied.
    const kept =
      bytes === undefined
        ? undefined
        : bytes === chunk
          ? bytes.subarray(from, to)
          : Buffer.from(bytes.subarray(from, to));
    run.push({ bytes: kept, line });
  });
  for await (chunk of textChunks(input)) {
    cutter.push(chunk);
    if (run.length > 0) {
      handOut(consumed, run, cutter.wholeBytes);
      yield run;
      run = [];
    }
  }
  cutter.end();
  if (run.length > 0) {
    handOut(consumed, run, cutter.wholeBytes);
    yield run;
  }
}

/**
 * CSV records, each with the line break that ends it: a line break ends a record where the record
 * so far holds an even number of quotes (a quoted field may hold line breaks; `""` is a quote
 * inside one). Line breaks are LF or CRLF, or CR alone where the input's first line break is one
 * (as csv-parse decides, from the first). A record over the limit is cut from the input all the same.
 */
export async function* csvRecords(
  input: AsyncIterable<Buffer>,
  consumed: Consumed = { bytes: 0, records: 0 },
  onLineBreak?: (lineBreak: 'lf' | 'cr') => void,
): AsyncIterable<RawRecord[]> {
  const pending = new Pending();
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let lineBreak: number | undefined;
  let base = 0;
  for await (const chunk of textChunks(input)) {
    if (lineBreak === undefined) {
      lineBreak = firstLineBreak(chunk);
      if (lineBreak !== undefined) onLineBreak?.(lineBreak === 13 ? 'cr' : 'lf');
    }
    const run: RawRecord[] = [];
    let start = 0;
    let scanned = 0;
    for (let end = chunk.indexOf(lineBreak ?? 10); end !== -1; end = chunk.indexOf(lineBreak ?? 10, end + 1)) {
      for (let quote = chunk.indexOf(34, scanned); quote !== -1 && quote < end; quote = chunk.indexOf(34, quote + 1))
        quoted = !quoted;
      scanned = end + 1;
      line += 1;
      if (quoted) continue;
      pending.add(chunk.subarray(start, end + 1));
      run.push({ bytes: pending.take(), line: recordLine });
      recordLine = line;
      start = end + 1;
    }
    for (let quote = chunk.indexOf(34, scanned); quote !== -1; quote = chunk.indexOf(34, quote + 1)) quoted = !quoted;
    pending.add(chunk.subarray(start));
    base += chunk.length;
    if (run.length > 0) {
      handOut(consumed, run, base - chunk.length + start);
      yield run;
    }
  }
  if (!pending.empty) {
    const last = [{ bytes: pending.take(), line: recordLine }];
    handOut(consumed, last, base);
    yield last;
  }
}

/** The byte that breaks lines: 13 where the first line break is a CR alone, else 10; undefined if none is seen yet. */
function firstLineBreak(chunk: Buffer): number | undefined {
  const lf = chunk.indexOf(10);
  const cr = chunk.indexOf(13);
  if (cr !== -1 && (lf === -1 || cr < lf) && cr + 1 < chunk.length) return chunk[cr + 1] === 10 ? 10 : 13;
  return lf === -1 ? undefined : 10;
}

/** Where jsonArrayRecords is in the array. */
type JsonState = 'before-array' | 'before-element' | 'in-element' | 'after-array';

/**
 * The elements of a JSON array, each as its own text, cut at the commas and the closing bracket
 * of the array itself (not those inside strings, objects or arrays): so a JSON input streams, one
 * element at a time, rather than being read whole. Anything but an array is unreadable.
 */
export async function* jsonArrayRecords(
  input: AsyncIterable<Buffer>,
  consumed: Consumed = { bytes: 0, records: 0 },
): AsyncIterable<RawRecord[]> {
  const pending = new Pending();
  let state = 'before-array' as JsonState;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let line = 1;
  let elementLine = 1;
  let elements = 0;
  let first = true;
  let base = 0;
  for await (const chunk of textChunks(input)) {
    const run: RawRecord[] = [];
    // Where the last element of this run ends, its comma or the closing bracket included.
    let runEnd = 0;
    // A byte order mark before the array.
    let at = first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf ? 3 : 0;
    first = false;
    let start = at;
    // Where the next backslash of this chunk is: a string is skipped to its end in one step.
    let backslash = -1;
    for (; at < chunk.length; at += 1) {
      if (inString) {
        if (escaped) {
          escaped = false;
          continue;
        }
        if (backslash < at) {
          backslash = chunk.indexOf(0x5c, at);
          if (backslash === -1) backslash = chunk.length;
        }
        const quote = chunk.indexOf(0x22, at);
        const end = quote === -1 ? chunk.length : quote;
        if (backslash < end) {
          at = backslash;
          escaped = true;
        } else {
          at = end;
          inString = end === chunk.length;
        }
        continue;
      }
      const byte = chunk[at] as number;
      if (byte === 10) line += 1;
      if (state === 'in-element') {
        if (byte === 0x22) inString = true;
        else if (byte === 0x7b || byte === 0x5b) depth += 1;
        else if ((byte === 0x7d || byte === 0x5d) && depth > 0) depth -= 1;
        else if (depth === 0 && (byte === 0x2c || byte === 0x5d)) {
          pending.add(chunk.subarray(start, at));
          run.push({ bytes: pending.take(), line: elementLine });
          runEnd = at + 1;
          elements += 1;
          state = byte === 0x2c ? 'before-element' : 'after-array';
        }
      } else if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) {
        // Whitespace between tokens.
      } else if (state === 'before-array') {
        if (byte !== 0x5b)
          throw unreadable('a JSON input must be an array of plants: use NDJSON for one plant per line');
        state = 'before-element';
      } else if (state === 'before-element' && byte === 0x5d) {
        if (elements > 0) throw unreadable(`not valid JSON: a comma before the closing bracket on line ${line}`);
        state = 'after-array';
      } else if (state === 'before-element') {
        state = 'in-element';
        elementLine = line;
        start = at;
        // This byte opens the element: read it again as part of it.
        at -= 1;
      } else {
        throw unreadable('not valid JSON: there is more after the end of the array');
      }
    }
    if (state === 'in-element') pending.add(chunk.subarray(start));
    base += chunk.length;
    if (run.length > 0) {
      handOut(consumed, run, base - chunk.length + runEnd);
      yield run;
    }
  }
  if (state === 'in-element' && depth === 0 && !inString) {
    // Input that ends inside the array, after an element that is whole: a row like the others,
    // not dropped without a word before the error below. One cut short is what that error names.
    const last = [{ bytes: pending.take(), line: elementLine }];
    handOut(consumed, last, base);
    yield last;
  }
  if (state !== 'after-array')
    throw unreadable(
      state === 'before-array'
        ? 'the JSON input is empty: expected an array of plants'
        : 'not valid JSON: the array is never closed',
    );
}
