import { PlantsError } from '../../core/errors.js';
import { thousands } from '../../core/printable.js';
import { MAX_ROW_BYTES, type Consumed } from '../../import/records.js';
import type { Row } from '../../import/row.js';
import type { Context } from '../context.js';
import { openInput, peekHead } from './files.js';
import type { BulkKind, BulkOptions } from './types.js';

/** What a bulk input is called in messages: its path, or `standard input` for `-`. */
export function inputName(input: string): string {
  return input === '-' ? 'standard input' : input;
}

/**
 * The rows of an input's chunks, in its format: as given (--format), as its name says, else as its
 * head shows (read once: standard input is no file to read twice). An input whose head tells
 * nothing is a usage error.
 */
export async function inputRows<T, Format extends string>(
  kind: BulkKind<T, Format>,
  options: Pick<BulkOptions<Format>, 'input' | 'format'>,
  chunks: AsyncIterable<Buffer | string>,
  consumed: Consumed,
): Promise<AsyncIterable<Row<T>[]>> {
  let format = options.format;
  if (format === undefined) {
    // Its head also where its name says the format: to refuse a name that says another.
    const peeked = await peekHead(chunks, MAX_ROW_BYTES);
    format = kind.formatOf(options.input, peeked.head, peeked.ended);
    if (format === undefined) {
      const command = kind.done === 'created' ? 'import' : 'delete';
      const why = `its first ${thousands(MAX_ROW_BYTES)} bytes are blank`;
      throw new PlantsError('usage', `cannot tell the format of ${inputName(options.input)}: ${why}: give --format`, {
        hint: `see plants ${command} --help`,
      });
    }
    return kind.rows(peeked.all, format, consumed);
  }
  return kind.rows(chunks, format, consumed);
}

/**
 * How many rows a file holds, read to its end and counted as the work would read them (a row
 * it would fail counts too): each run of rows is counted and let go, so that a file of any size
 * is counted in bounded memory. For a file only: what it reads of standard input, the work
 * would not read again.
 */
export async function countRows<T, Format extends string>(
  kind: BulkKind<T, Format>,
  options: Pick<BulkOptions<Format>, 'input' | 'format'>,
  ctx: Context,
): Promise<number> {
  const input = await openInput(options.input, ctx.io, ctx.fs);
  let count = 0;
  try {
    for await (const run of await inputRows(kind, options, input.chunks, { bytes: 0, records: 0 })) count += run.length;
  } catch (error) {
    if (!(error instanceof PlantsError && error.code === 'unreadable_input')) throw error;
    throw new PlantsError('unreadable_input', `${inputName(options.input)}: ${error.message}`);
  } finally {
    await input.close();
  }
  return count;
}
