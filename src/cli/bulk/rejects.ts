import { integerFromDecimalText } from '../../core/int64.js';
import { jsonNumberText, stringifyJson } from '../../core/json.js';
import type { Format } from '../../import/formats.js';
import { csvField } from '../../import/csv-text.js';

/**
 * A row not done, as --rejects keeps it: a JSON value (the plant or id asked for, or an invalid
 * row as it was read) with its JSON text; or text that was read and was never JSON.
 */
export type Rejected = { value: unknown; json: string } | { text: string };

/** The formats --rejects is written in: those of plants, which the commands read back. */
export type RejectsFormat = Format;

/** How --rejects is written, in one format: what comes first, each row, what comes last. */
export interface RejectsForm {
  head: string;
  row(rejected: Rejected): string;
  tail(): string;
}

/**
 * --rejects in `format`, the one the command reads the file back in, so that the file retries its
 * rows as it is, whatever it is named. NDJSON: a value a line, text as it was read (one line of
 * an NDJSON input). A JSON array: text that was never JSON becomes a JSON string, a row that
 * fails again rather than an array that cannot be read. CSV: only ids (plants delete): a column
 * `id`, the id as it was written, or an invalid row's JSON where it has no id to show.
 */
export function rejectsForm(format: RejectsFormat): RejectsForm {
  switch (format) {
    case 'ndjson':
      return { head: '', row: (rejected) => `${'text' in rejected ? rejected.text : rejected.json}\n`, tail: () => '' };
    case 'json': {
      let rows = 0;
      return {
        head: '[',
        row: (rejected) =>
          `${rows++ === 0 ? '\n' : ',\n'}${'text' in rejected ? stringifyJson(rejected.text) : rejected.json}`,
        tail: () => (rows === 0 ? ']\n' : '\n]\n'),
      };
    }
    case 'csv':
      return { head: 'id\n', row: (rejected) => `${csvField(idCell(rejected))}\n`, tail: () => '' };
  }
}

/**
 * The id cell of a row: its id as written, where that fails again when read back from CSV, else
 * all of the row as JSON: never an empty cell (an empty line, no row at all when read back), nor
 * digits that were a JSON string (`{"id":"12"}`), which CSV would read as a good id.
 */
function idCell(rejected: Rejected): string {
  if ('text' in rejected) return failsAgain(rejected.text);
  const { value } = rejected;
  const id = typeof value === 'object' && value !== null && 'id' in value ? value.id : undefined;
  // A bigint: a valid id, or one read from CSV or a line of ids as digits, out of range.
  if (typeof id === 'bigint') return String(id);
  const numberText = jsonNumberText(id);
  if (numberText !== undefined) return numberText;
  return typeof id === 'string' && id.trim() !== '' && integerFromDecimalText(id) === undefined
    ? id
    : failsAgain(rejected.json);
}

/**
 * A row as a cell that CSV reads as no id: one that is only digits (a bare JSON number `12`, or text
 * such as `007` that was never JSON) would be read back as an id it never was, and a retry would
 * delete that plant; it is kept as a JSON string, which fails again.
 */
function failsAgain(cell: string): string {
  return integerFromDecimalText(cell.trim()) === undefined ? cell : JSON.stringify(cell);
}
