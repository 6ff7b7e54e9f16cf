import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { text } from 'node:stream/consumers';
import { parse as parseCsv } from 'csv-parse';
import { isPlantsError, PlantsError } from '../core/errors.js';
import { parseJson } from '../core/json.js';
import { canonicalPlant } from '../core/plant-line.js';
import { integerFromDecimalText } from '../core/int64.js';
import { printable } from '../core/printable.js';
import type { NewPlant } from '../core/schemas.js';
import { parseNewPlant, parseNewPlantText, readableId } from '../core/validate.js';
import type { Format } from './formats.js';


/** Line number (NDJSON, CSV: where the record starts) or array index (JSON), as a person finds it. */
type RowPlace = { line: number } | { index: number };

/** One row of an import: where it is, and the plant it makes or why it makes none. */
export type Row = ValidRow | InvalidRow;

export interface ValidRow {
  at: RowPlace;
  plant: NewPlant;
  error?: undefined;
}

export interface InvalidRow {
  at: RowPlace;
  error: PlantsError;
  /** The row as read, re-importable as one NDJSON line (for --rejects). Valid rows keep only their plant. */
  raw: unknown;
  /** The id, when the row's id itself is a valid int64. */
  id?: bigint;
  plant?: undefined;
}

/**
 * The rows of an input, streamed (JSON arrays excepted: they are read whole), in runs of rows:
 * a promise per run rather than per row, which at a hundred thousand rows a second matters.
 */
export function readRows(input: Readable, format: Format): AsyncIterable<Row[]> {
  switch (format) {
    case 'ndjson':
      return ndjsonRows(input);
    case 'csv':
      return csvRows(input);
    case 'json':
      return jsonArrayRows(input);
  }
}

const STOPPED = Symbol('stopped');

/**
 * The runs of `runs` until `stop` resolves (an interrupted import), then no more: at once, even
 * while a read waits for input that has not come (a pipe), and without the run being read. That
 * read settles when the caller closes the input.
 */
export async function* untilStopped<T>(runs: AsyncIterable<T>, stop: Promise<unknown>): AsyncIterable<T> {
  const iterator = runs[Symbol.asyncIterator]();
  let stopped = false;
  // Wakes the wait for the current read. Not Promise.race with `stop`: each race would leave a
  // reaction on `stop`, which holds its run until `stop` settles (all of an import's rows).
  let wake: (() => void) | undefined;
  void stop.then(() => {
    stopped = true;
    wake?.();
  });
  let reading: Promise<IteratorResult<T>> | undefined;
  try {
    while (!stopped) {
      const read = iterator.next();
      reading = read;
      const next = await new Promise<IteratorResult<T> | typeof STOPPED>((resolve, reject) => {
        wake = () => resolve(STOPPED);
        read.then(resolve, reject);
      });
      wake = undefined;
      if (next === STOPPED) return;
      reading = undefined;
      if (next.done === true) return;
      yield next.value;
    }
  } finally {
    // A read cut short by the stop ends in an error once the input is closed: nobody wants it.
    if (reading === undefined) await iterator.return?.();
    else reading.catch(() => undefined);
  }
}

function unreadable(message: string): PlantsError {
  return new PlantsError('unreadable_input', message);
}

/** A row's plant, or the validation error, with the row's id kept when it is readable. */
function validated(at: RowPlace, raw: unknown, parse: () => NewPlant): Row {
  try {
    return { at, plant: parse() };
  } catch (error) {
    if (!isPlantsError(error)) throw error;
    return failedRow(at, raw, error);
  }
}

function failedRow(at: RowPlace, raw: unknown, error: PlantsError): Row {
  const id = readableId(raw);
  return id === undefined ? { at, raw, error } : { at, raw, error, id };
}

async function* ndjsonRows(input: Readable): AsyncIterable<Row[]> {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let line = 0;
  const rowsOf = (lines: string[]) => {
    const rows: Row[] = [];
    for (const text of lines) {
      line += 1;
      const row = ndjsonRow(line === 1 ? text.replace(/^\uFEFF/, '') : text, line);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  };
  for await (const chunk of input) {
    const lines = (partial + decoder.write(chunk as Buffer)).split('\n');
    partial = lines.pop() as string;
    yield rowsOf(lines);
  }
  partial += decoder.end();
  if (partial !== '') yield rowsOf([partial]);
}

/** One NDJSON line as a row: the fast exact path for a canonical line, else the lossless parser. */
function ndjsonRow(text: string, line: number): Row | undefined {
  const source = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (source.trim() === '') return undefined;
  const fast = canonicalPlant(source);
  if (fast !== undefined) return { at: { line }, plant: fast };
  let value: unknown;
  try {
    value = parseJson(source);
  } catch (error) {
    const message = `not JSON (${(error as Error).message}): ${printable(source, 80)}`;
    return { at: { line }, raw: source, error: new PlantsError('malformed_json', message) };
  }
  return validated({ line }, value, () => parseNewPlant(value));
}

async function* csvRows(input: Readable): AsyncIterable<Row[]> {
  // Lines are counted here from each record's raw text, not by csv-parse's `info` (a third of its
  // time), so empty lines come as records too, and are skipped below.
  const parser = input.pipe(parseCsv({ bom: true, raw: true, relax_column_count: true }));
  let columns: { id: number; name: number; tag: number | undefined; count: number } | undefined;
  let nextLine = 1;
  try {
    for await (const records of recordRuns<{ record: string[]; raw: string }>(parser)) {
      const rows: Row[] = [];
      for (const { record, raw: text } of records) {
        // The line the record starts on: a quoted field may span lines, and people look for the first.
        const line = nextLine;
        nextLine += lineBreaks(text);
        if (record.length === 1 && record[0] === '' && lineBreaks(text) <= 1 && text.trim() === '') continue;
        if (columns === undefined) {
          columns = header(record);
          continue;
        }
        const cell = (index: number | undefined) => (index === undefined ? undefined : record[index]);
        const fields = { id: cell(columns.id), name: cell(columns.name), tag: cell(columns.tag) || undefined };
        // What a rejected row is written back as: the id as a number where it is one.
        const raw = () => ({ ...fields, id: integerFromDecimalText(fields.id ?? '') ?? fields.id });
        if (record.length !== columns.count) {
          // The row's line is reported beside the message (the summary, --report): not in it again.
          const problem = `has ${record.length} ${record.length === 1 ? 'field' : 'fields'}, the header has ${columns.count}`;
          rows.push(failedRow({ line }, raw(), new PlantsError('invalid_plant', `row ${problem}`, { issues: [{ path: 'row', message: problem }] })));
          continue;
        }
        try {
          rows.push({ at: { line }, plant: parseNewPlantText(fields) });
        } catch (error) {
          if (!isPlantsError(error)) throw error;
          rows.push(failedRow({ line }, raw(), error));
        }
      }
      if (rows.length > 0) yield rows;
    }
  } catch (error) {
    if (isPlantsError(error)) throw error;
    throw unreadable(`not readable as CSV: ${(error as Error).message}`);
  }
  if (columns === undefined) throw unreadable('the CSV input is empty: expected a header row id,name,tag');
}

/**
 * A stream's objects in runs: all it has ready at each turn, so that a reader pays a promise per
 * run rather than per object (an import reads hundreds of thousands of rows).
 */
async function* recordRuns<T>(stream: Readable): AsyncIterable<T[]> {
  // Listened to for as long as the runs are read, also while a run is with the reader: an error
  // of the stream's then is thrown at the next turn, never left unhandled.
  let failure: Error | undefined;
  const onError = (error: Error) => (failure ??= error);
  stream.on('error', onError);
  try {
    for (;;) {
      const run: T[] = [];
      for (let item: T | null = stream.read() as T | null; item !== null; item = stream.read() as T | null) run.push(item);
      if (run.length > 0) yield run;
      else if (failure !== undefined) throw failure;
      else if (stream.readableEnded) return;
      else await readableEndOrError(stream);
    }
  } finally {
    stream.off('error', onError);
    // A reader that stopped early (an import that stopped) leaves nothing running behind it.
    if (!stream.readableEnded) stream.destroy();
  }
}

function readableEndOrError(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('readable', done).off('end', done).off('error', done);
      resolve();
    };
    stream.on('readable', done).on('end', done).on('error', done);
  });
}

/** Line breaks in a record's text: \n, \r\n, or a lone \r (csv-parse takes any of them). */
function lineBreaks(text: string): number {
  if (text.includes('\r')) return text.match(/\r\n?|\n/g)?.length ?? 0;
  let breaks = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) breaks += 1;
  return breaks;
}

function header(record: string[]): { id: number; name: number; tag: number | undefined; count: number } {
  const names = record.map((name) => name.trim().toLowerCase());
  const id = names.indexOf('id');
  const name = names.indexOf('name');
  if (id === -1 || name === -1) {
    throw unreadable(`the first CSV line must be a header naming the columns id, name and optionally tag; got ${printable(record.join(','), 80)}`);
  }
  const tag = names.indexOf('tag');
  return { id, name, tag: tag === -1 ? undefined : tag, count: record.length };
}

async function* jsonArrayRows(input: Readable): AsyncIterable<Row[]> {
  let document: unknown;
  try {
    document = parseJson((await text(input)).replace(/^\uFEFF/, ''));
  } catch (error) {
    throw unreadable(`not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(document)) throw unreadable('a JSON input must be an array of plants: use NDJSON for one plant per line');
  const rows = document.map((value: unknown, index: number) => validated({ index }, value, () => parseNewPlant(value)));
  for (let start = 0; start < rows.length; start += 10_000) yield rows.slice(start, start + 10_000);
}
