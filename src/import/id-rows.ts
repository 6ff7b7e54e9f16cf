import { PlantsError } from '../core/errors.js';
import { integerFromDecimalText, INT64_MAX, INT64_MIN } from '../core/int64.js';
import { parseJson } from '../core/json.js';
import { printable } from '../core/printable.js';
import { isProblem, readInt64 } from '../core/fields.js';
import { TABLE_LINE } from './formats.js';
import type { InvalidRow, Row, RowPlace } from './row.js';
import { csvRaw, failedRow, notJsonRow, type RowReader } from './rows.js';

/**
 * The rows of a delete from a file: each an id. A line with only an id (the `ids` format), or
 * what `plants list` writes (NDJSON, CSV, JSON, its table), of which only the id is read.
 */
export const ID_ROWS: RowReader<bigint> = {
  json(text, at): Row<bigint> {
    let value: unknown;
    try {
      value = parseJson(text);
    } catch (error) {
      return notJsonRow(at, text, (error as Error).message);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !('id' in value)) {
      return failedRow(at, value, invalidId('a row must be an object with an id'));
    }
    const id = readInt64(value.id);
    return isProblem(id) ? failedRow(at, value, invalidId(`id ${id.problem}`)) : { at, value: id, id };
  },
  columns: { required: ['id'], optional: [] },
  csv(cells, at) {
    return decimalId(cells.id ?? '', at, () => csvRaw(cells));
  },
  idLine(text, at) {
    // Kept as `{"id":…}`, as a CSV row is: a row of --rejects in the form of every other.
    return decimalId(text.trim(), at, () => csvRaw({ id: text.trim() }));
  },
  tableLine(text, at) {
    // A line of another shape is kept as it was: its first field need not be an id at all.
    if (!TABLE_LINE.test(text)) return notTableRow(at, text);
    const id = text.slice(0, text.indexOf('\t'));
    return decimalId(id, at, () => csvRaw({ id }));
  },
};

/** A line of a table that is not one of plants list's: an id, a name and a tag, tab-separated. */
function notTableRow(at: RowPlace, text: string): InvalidRow {
  const shape = "plants list's table (an id, a name and a tag, tab-separated)";
  return { at, text, error: new PlantsError('invalid_plant', `not a line of ${shape}: ${printable(text, 80)}`) };
}

/** An id written in base-10 digits, as on a command line. */
function decimalId(text: string, at: RowPlace, raw: () => unknown): Row<bigint> {
  const id = integerFromDecimalText(text);
  if (id === undefined)
    return failedRow(at, raw(), invalidId(`id must be a base-10 integer, got ${JSON.stringify(printable(text, 40))}`));
  if (id < INT64_MIN || id > INT64_MAX)
    return failedRow(at, raw(), invalidId(`id must be between ${INT64_MIN} and ${INT64_MAX}, got ${text}`));
  return { at, value: id, id };
}

function invalidId(message: string): PlantsError {
  const path = 'id';
  return new PlantsError('invalid_plant', message, { issues: [{ path, message: message.replace(/^id /, '') }] });
}
