import { parse as parseCsv } from 'csv-parse/sync';
import { PlantsError } from '../core/errors.js';
import { integerFromDecimalText } from '../core/int64.js';
import { printable, thousands } from '../core/printable.js';
import { readableId } from '../core/validate.js';
import type { IdFormat } from './formats.js';
import type { InvalidRow, Row, RowPlace } from './row.js';
import {
  csvRecords,
  jsonArrayRecords,
  MAX_ROW_BYTES,
  ndjsonRecords,
  type Consumed,
  type RawRecord,
} from './records.js';

/**
 * What a kind of bulk work makes of each row of its input (a plant to create, an id to delete):
 * the formats are read here once for all.
 */
export interface RowReader<T> {
  /** A row from the text of one JSON value: an NDJSON line, an element of a JSON array. */
  json(text: string, at: RowPlace): Row<T>;
  /** The CSV columns it reads: those a header must name, and those it reads when named. */
  columns: { required: readonly string[]; optional: readonly string[] };
  /** A row from a CSV record's cells, by column. */
  csv(cells: Readonly<Record<string, string | undefined>>, at: RowPlace): Row<T>;
  /** A row from a line that holds only an id (the `ids` format), for the work that takes one. */
  idLine?(text: string, at: RowPlace): Row<T>;
  /** A row from a line of plants list's table (id, name, tag, tab-separated), for the work that takes one. */
  tableLine?(text: string, at: RowPlace): Row<T>;
}

/**
 * The rows of an input, streamed in runs of rows (a promise per run rather than per row, which at
 * a hundred thousand rows a second matters). No row takes more memory than MAX_ROW_BYTES, however
 * long it is: it becomes a failed row, and the work goes on.
 */
export function readRows<T>(
  input: AsyncIterable<Buffer | string>,
  format: IdFormat,
  reader: RowReader<T>,
  consumed: Consumed = { bytes: 0, records: 0 },
): AsyncIterable<Row<T>[]> {
  const bytes = asBuffers(input);
  switch (format) {
    case 'ndjson':
      return lineRows(ndjsonRecords(bytes, consumed), reader.json);
    case 'ids':
      return lineRows(ndjsonRecords(bytes, consumed), reader.idLine as NonNullable<typeof reader.idLine>);
    case 'table':
      return lineRows(ndjsonRecords(bytes, consumed), reader.tableLine as NonNullable<typeof reader.tableLine>);
    case 'csv': {
      const options = { ...CSV_OPTIONS };
      // csv-parse must break records where csvRecords does: at a CR alone, in an old Mac file.
      const onLineBreak = (lineBreak: 'lf' | 'cr') => {
        if (lineBreak === 'cr') options.record_delimiter = ['\r'];
      };
      return csvRows(csvRecords(bytes, consumed, onLineBreak), options, reader);
    }
    case 'json':
      return jsonArrayRows(jsonArrayRecords(bytes, consumed), reader);
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
  return {
    at,
    error: new PlantsError(
      'payload_too_large',
      `the row is over ${thousands(MAX_ROW_BYTES)} bytes, the most a row may be`,
    ),
  };
}

/** A row that asks for nothing that can be done, kept as read (for --rejects), with its id when that is readable. */
export function failedRow(at: RowPlace, raw: unknown, error: PlantsError): InvalidRow {
  const id = readableId(raw);
  return id === undefined ? { at, raw, error } : { at, raw, error, id };
}

/** A row of JSON text that is not JSON. */
export function notJsonRow(at: RowPlace, source: string, why: string): InvalidRow {
  return { at, text: source, error: new PlantsError('malformed_json', `not JSON (${why}): ${printable(source, 80)}`) };
}

/**
 * Rows of lines (NDJSON, ids): a blank line is no row; a byte order mark and a CR at the end are not part of a line.
 */
async function* lineRows<T>(
  records: AsyncIterable<RawRecord[]>,
  rowOf: (text: string, at: RowPlace) => Row<T>,
): AsyncIterable<Row<T>[]> {
  for await (const run of records) {
    const rows: Row<T>[] = [];
    for (const { bytes, line } of run) {
      if (bytes === undefined) {
        rows.push(tooLong({ line }));
        continue;
      }
      const text = bytes.toString('utf8');
      const unmarked = line === 1 ? text.replace(/^\uFEFF/, '') : text;
      const source = unmarked.endsWith('\r') ? unmarked.slice(0, -1) : unmarked;
      if (source.trim() !== '') rows.push(rowOf(source, { line }));
    }
    if (rows.length > 0) yield rows;
  }
}

/** Where each column a reader takes is in a CSV header, and how many columns the header has. */
interface Columns {
  at: Map<string, number>;
  count: number;
}

/**
 * CSV rows: records cut by csvRecords, parsed by csv-parse a run at a time (its synchronous API:
 * each run holds whole records only). Records end with LF or CRLF; a lone CR is part of a field.
 */
async function* csvRows<T>(
  records: AsyncIterable<RawRecord[]>,
  options: CsvOptions,
  reader: RowReader<T>,
): AsyncIterable<Row<T>[]> {
  let columns: Columns | undefined;
  for await (const run of records) {
    const rows: Row<T>[] = [];
    for (const { record, line } of parseRun(run, columns === undefined, options)) {
      if (record === undefined) {
        if (columns === undefined) throw unreadable(`the CSV header is over ${thousands(MAX_ROW_BYTES)} bytes`);
        rows.push(tooLong({ line }));
        continue;
      }
      // An empty line.
      if (record.length === 1 && record[0] === '') continue;
      if (columns === undefined) {
        columns = header(record, reader);
        continue;
      }
      rows.push(csvRow(record, columns, { line }, reader));
    }
    if (rows.length > 0) yield rows;
  }
  if (columns === undefined)
    throw unreadable(
      'the CSV input is empty: expected a header row ' +
        `${[...reader.columns.required, ...reader.columns.optional].join(',')}`,
    );
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
function parseRun(
  run: RawRecord[],
  first: boolean,
  options: CsvOptions,
): { record: string[] | undefined; line: number }[] {
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
      for (const one of segment)
        out.push({ record: parseOne(one, first && out.length === 0, options), line: one.line });
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

function csvRow<T>(record: string[], columns: Columns, at: RowPlace, reader: RowReader<T>): Row<T> {
  const cells: Record<string, string | undefined> = {};
  for (const [name, index] of columns.at) cells[name] = record[index];
  if (record.length !== columns.count) {
    // The row's line is reported beside the message (the summary, --report): not in it again.
    const problem = `has ${record.length} ${record.length === 1 ? 'field' : 'fields'}, the header has ${columns.count}`;
    return failedRow(
      at,
      csvRaw(cells),
      new PlantsError('invalid_plant', `row ${problem}`, { issues: [{ path: 'row', message: problem }] }),
    );
  }
  return reader.csv(cells, at);
}

/** A CSV row as a rejected row is written back: its cells, the id a number where it is one, an empty tag none. */
export function csvRaw(cells: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(cells)) {
    if (name === 'id') raw.id = integerFromDecimalText(value ?? '') ?? value;
    else if (value !== undefined && (value !== '' || name !== 'tag')) raw[name] = value;
  }
  return raw;
}

function header<T>(record: string[], reader: RowReader<T>): Columns {
  const names = record.map((name) => name.trim().toLowerCase());
  const at = new Map<string, number>();
  for (const name of [...reader.columns.required, ...reader.columns.optional]) {
    const index = names.indexOf(name);
    if (index !== -1) at.set(name, index);
  }
  if (reader.columns.required.some((name) => !at.has(name))) {
    throw unreadable(
      `the first CSV line must be a header naming the columns ${headerExample(reader)}; got ` +
        `${printable(record.join(','), 80)}`,
    );
  }
  return { at, count: record.length };
}

function headerExample<T>(reader: RowReader<T>): string {
  const { required, optional } = reader.columns;
  return optional.length === 0 ? required.join(', ') : `${required.join(', ')} and optionally ${optional.join(', ')}`;
}

/** The elements of a JSON array, each a row by its index; an element that is not JSON is a failed row. */
async function* jsonArrayRows<T>(records: AsyncIterable<RawRecord[]>, reader: RowReader<T>): AsyncIterable<Row<T>[]> {
  let index = 0;
  for await (const run of records) {
    const rows: Row<T>[] = [];
    for (const { bytes } of run) {
      const at = { index: index++ };
      if (bytes === undefined) {
        rows.push(tooLong(at));
        continue;
      }
      rows.push(reader.json(bytes.toString('utf8').trim(), at));
    }
    if (rows.length > 0) yield rows;
  }
}
