import { parse as parseCsv } from 'csv-parse/sync';
import { isPlantsError, PlantsError } from '../core/errors.js';
import { parseJson } from '../core/json.js';
import { readPlantJson } from '../core/plant-json.js';
import { integerFromDecimalText } from '../core/int64.js';
import { printable, thousands } from '../core/printable.js';
import type { NewPlant } from '../core/schemas.js';
import { parseNewPlantText, readableId } from '../core/validate.js';
import type { Format } from './formats.js';
import { csvRecords, jsonArrayRecords, MAX_ROW_BYTES, ndjsonRecords, type RawRecord } from './records.js';

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
  /**
   * The row as read, re-importable as one NDJSON line (for --rejects). Valid rows keep only their
   * plant; a row over the size limit keeps nothing.
   */
  raw?: unknown;
  /** The id, when the row's id itself is a valid int64. */
  id?: bigint;
  plant?: undefined;
}

/**
 * The rows of an input, streamed in runs of rows (a promise per run rather than per row, which at
 * a hundred thousand rows a second matters). No row takes more memory than MAX_ROW_BYTES, however
 * long it is: it becomes a failed row, and the import goes on.
 */
export function readRows(input: AsyncIterable<Buffer | string>, format: Format): AsyncIterable<Row[]> {
  const bytes = asBuffers(input);
  switch (format) {
    case 'ndjson':
      return ndjsonRows(ndjsonRecords(bytes));
    case 'csv': {
      const options = { ...CSV_OPTIONS };
      // csv-parse must break records where csvRecords does: at a CR alone, in an old Mac file.
      const onLineBreak = (lineBreak: 'lf' | 'cr') => {
        if (lineBreak === 'cr') options.record_delimiter = ['\r'];
      };
      return csvRows(csvRecords(bytes, undefined, onLineBreak), options);
    }
    case 'json':
      return jsonArrayRows(jsonArrayRecords(bytes));
  }
}

async function* asBuffers(input: AsyncIterable<Buffer | string>): AsyncIterable<Buffer> {
  for await (const chunk of input) yield typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
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

/** A row over MAX_ROW_BYTES: failed, and not kept (so not written to --rejects either). */
function tooLong(at: RowPlace): InvalidRow {
  return { at, error: new PlantsError('payload_too_large', `the row is over ${thousands(MAX_ROW_BYTES)} bytes, the most a row may be`) };
}

function failedRow(at: RowPlace, raw: unknown, error: PlantsError): Row {
  const id = readableId(raw);
  return id === undefined ? { at, raw, error } : { at, raw, error, id };
}

async function* ndjsonRows(records: AsyncIterable<RawRecord[]>): AsyncIterable<Row[]> {
  for await (const run of records) {
    const rows: Row[] = [];
    for (const { bytes, line } of run) {
      if (bytes === undefined) {
        rows.push(tooLong({ line }));
        continue;
      }
      const text = bytes.toString('utf8');
      const unmarked = line === 1 ? text.replace(/^\uFEFF/, '') : text;
      const source = unmarked.endsWith('\r') ? unmarked.slice(0, -1) : unmarked;
      if (source.trim() !== '') rows.push(jsonRow(source, { line }));
    }
    if (rows.length > 0) yield rows;
  }
}

/** One row of JSON text (an NDJSON line, an array's element), read by core/plant-json.ts. */
function jsonRow(source: string, at: RowPlace): Row {
  const reading = readPlantJson(source);
  if (reading.plant !== undefined) return { at, plant: reading.plant };
  if (reading.notJson !== undefined) return { at, raw: source, error: new PlantsError('malformed_json', `not JSON (${reading.notJson}): ${printable(source, 80)}`) };
  // Kept as the row was, for --rejects; its id, when that is readable, for the report.
  return failedRow(at, parseJson(source), reading.invalid);
}

interface Columns {
  id: number;
  name: number;
  tag: number | undefined;
  count: number;
}

/**
 * CSV rows: records cut by csvRecords, parsed by csv-parse a run at a time (its synchronous API:
 * each run holds whole records only). Records end with LF or CRLF; a lone CR is part of a field.
 */
async function* csvRows(records: AsyncIterable<RawRecord[]>, options: CsvOptions): AsyncIterable<Row[]> {
  let columns: Columns | undefined;
  for await (const run of records) {
    const rows: Row[] = [];
    for (const { record, line } of parseRun(run, columns === undefined, options)) {
      if (record === undefined) {
        if (columns === undefined) throw unreadable(`the CSV header is over ${thousands(MAX_ROW_BYTES)} bytes`);
        rows.push(tooLong({ line }));
        continue;
      }
      // An empty line.
      if (record.length === 1 && record[0] === '') continue;
      if (columns === undefined) {
        columns = header(record);
        continue;
      }
      rows.push(csvRow(record, columns, line));
    }
    if (rows.length > 0) yield rows;
  }
  if (columns === undefined) throw unreadable('the CSV input is empty: expected a header row id,name,tag');
}

interface CsvOptions {
  relax_column_count: boolean;
  record_delimiter: string[];
}

const CSV_OPTIONS: CsvOptions = { relax_column_count: true, record_delimiter: ['\r\n', '\n'] };

/**
 * The records of a run, each with its line; undefined for one over the limit. A run csv-parse
 * cannot read is read again record by record, so that the rows before the bad one count.
 */
function parseRun(run: RawRecord[], first: boolean, options: CsvOptions): { record: string[] | undefined; line: number }[] {
  const out: { record: string[] | undefined; line: number }[] = [];
  let segment: RawRecord[] = [];
  const flush = () => {
    if (segment.length === 0) return;
    const text = Buffer.concat(segment.map((record) => record.bytes as Buffer)).toString('utf8');
    let parsed: string[][] | undefined;
    try {
      parsed = parseCsv(text, { ...options, bom: first && out.length === 0 }) as string[][];
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined && parsed.length === segment.length) {
      parsed.forEach((record, i) => out.push({ record, line: (segment[i] as RawRecord).line }));
    } else {
      for (const one of segment) out.push({ record: parseOne(one, first && out.length === 0, options), line: one.line });
    }
    segment = [];
  };
  for (const record of run) {
    if (record.bytes === undefined) {
      flush();
      out.push({ record: undefined, line: record.line });
    } else segment.push(record);
  }
  flush();
  return out;
}

function parseOne({ bytes, line }: RawRecord, bom: boolean, options: CsvOptions): string[] {
  try {
    return (parseCsv((bytes as Buffer).toString('utf8'), { ...options, bom }) as string[][])[0] ?? [''];
  } catch (error) {
    const message = (error as Error).message.replace(/ at line \d+/, '');
    throw unreadable(`not readable as CSV: ${printable(message)} (line ${line})`);
  }
}

function csvRow(record: string[], columns: Columns, line: number): Row {
  const cell = (index: number | undefined) => (index === undefined ? undefined : record[index]);
  const fields = { id: cell(columns.id), name: cell(columns.name), tag: cell(columns.tag) || undefined };
  // What a rejected row is written back as: the id as a number where it is one.
  const raw = () => ({ ...fields, id: integerFromDecimalText(fields.id ?? '') ?? fields.id });
  if (record.length !== columns.count) {
    // The row's line is reported beside the message (the summary, --report): not in it again.
    const problem = `has ${record.length} ${record.length === 1 ? 'field' : 'fields'}, the header has ${columns.count}`;
    return failedRow({ line }, raw(), new PlantsError('invalid_plant', `row ${problem}`, { issues: [{ path: 'row', message: problem }] }));
  }
  try {
    return { at: { line }, plant: parseNewPlantText(fields) };
  } catch (error) {
    if (!isPlantsError(error)) throw error;
    return failedRow({ line }, raw(), error);
  }
}

function header(record: string[]): Columns {
  const names = record.map((name) => name.trim().toLowerCase());
  const id = names.indexOf('id');
  const name = names.indexOf('name');
  if (id === -1 || name === -1) {
    throw unreadable(`the first CSV line must be a header naming the columns id, name and optionally tag; got ${printable(record.join(','), 80)}`);
  }
  const tag = names.indexOf('tag');
  return { id, name, tag: tag === -1 ? undefined : tag, count: record.length };
}

/** The elements of a JSON array, each a row by its index; an element that is not JSON is a failed row. */
async function* jsonArrayRows(records: AsyncIterable<RawRecord[]>): AsyncIterable<Row[]> {
  let index = 0;
  for await (const run of records) {
    const rows: Row[] = [];
    for (const { bytes } of run) {
      const at = { index: index++ };
      if (bytes === undefined) {
        rows.push(tooLong(at));
        continue;
      }
      rows.push(jsonRow(bytes.toString('utf8').trim(), at));
    }
    if (rows.length > 0) yield rows;
  }
}
