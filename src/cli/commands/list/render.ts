import { encodePlants } from '../../../core/encode-plants.js';
import { encodeFields, type PlantField } from '../../../core/plant-fields.js';
import { printable } from '../../../core/printable.js';
import type { NewPlant } from '../../../core/schemas.js';
import { csvField } from '../../../import/csv-text.js';
import type { IOStreams } from '../../context.js';
import { FailedMidDocument } from '../../failed-mid-document.js';
import { writeJsonDocument } from '../../json-output.js';
import { writeInTurn } from '../../paced-output.js';

/** The formats list writes for import to read back: exactly what import reads. */
export type ListFormat = 'ndjson' | 'csv';

/** The plants listed, or how many match (--count). */
export type ListResult = PlantsListed | { count: number };

export interface PlantsListed {
  /** The plants in id order, a page at a time, read as they are written out (a million need not fit in memory). */
  pages: AsyncIterable<NewPlant[]>;
  format?: ListFormat;
  /** With --json, only these fields of each plant. */
  fields?: readonly PlantField[];
  /** Ids of plants CSV cannot carry (an empty tag, a NUL, a lone surrogate), left out and named on stderr: exit 1. */
  notWritten: bigint[];
  /** Said on stderr where a terminal would show nothing at all: `no plants yet in …`. */
  none: string;
}

/**
 * The plants on stdout as they come, a page at a time: as import reads them (--format), a table
 * on a terminal, else a line a plant (id, name, tag, tab-separated, control characters escaped).
 * Each page waits for stdout to take the one before (a slow pipe holds one page, not the store),
 * and once stdout is gone (`| head -1`) no more pages are read: leaving the loop closes the source.
 */
export async function renderHuman(result: ListResult, io: IOStreams): Promise<void> {
  // A number on stdout, for `$(plants list --count)`.
  if ('count' in result) return void io.stdout.write(`${result.count}\n`);
  if (result.format === 'ndjson')
    return void (await writePagesInTurn(result, io, (page) => encodePlants(page, '', '\n', '\n')));
  if (result.format === 'csv') return writeCsv(result, io);
  const terminal = io.stdoutTerminal;
  let first = true;
  await writePagesInTurn(result, io, (page) => {
    const rows = page.map((plant) => [
      String(plant.id),
      printable(plant.name, Infinity),
      plant.tag === undefined ? '' : printable(plant.tag, Infinity),
    ]);
    const text =
      terminal === undefined
        ? `${rows.map((row) => row.join('\t')).join('\n')}\n`
        : table(rows, first, terminal.columns ?? 80, io);
    first = false;
    return text;
  });
  // A person at a terminal is told; a script reads no output as no plants.
  if (first && terminal !== undefined) io.stderr.write(`${printable(result.none, Infinity)}\n`);
}

/**
 * Each page on stdout as `encode` makes it, in turn (writeInTurn); false once stdout takes nothing more, and no page is
 * read after it. A page is let go of once encoded, before the next is read: held while the next is read, it outlives a
 * scavenge, and V8 grows its young generation after what survives one: a long list would take more memory the longer
 * it is.
 */
async function writePagesInTurn(
  { pages }: PlantsListed,
  io: IOStreams,
  encode: (page: NewPlant[]) => string | Promise<string>,
): Promise<boolean> {
  const iterator = pages[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<NewPlant[]> | undefined = await iterator.next();
      if (next.done === true) return true;
      const text = await encode(next.value);
      next = undefined;
      if (!(await writeInTurn(io.stdout, text))) return false;
    }
  } finally {
    // Leaving early closes the source (the store, its connections).
    await iterator.return?.();
  }
}

/** A page as a table: the columns as wide as the page needs, the name cut to what the terminal leaves it. */
function table(rows: string[][], header: boolean, columns: number, io: IOStreams): string {
  const idWidth = Math.max(2, ...rows.map((row) => (row[0] as string).length));
  const tagWidth = Math.max(3, ...rows.map((row) => (row[2] as string).length));
  const nameWidth = Math.max(
    4,
    Math.min(Math.max(...rows.map((row) => (row[1] as string).length)), columns - idWidth - Math.min(tagWidth, 20) - 4),
  );
  const cut = (text: string, width: number) =>
    text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
  const line = (id: string, name: string, tag: string) =>
    `${id.padStart(idWidth)}  ${cut(name, nameWidth)}  ${tag}`.trimEnd();
  const lines = rows.map(([id, name, tag]) => line(id as string, name as string, tag as string));
  return `${header ? `${io.stdoutStyle.bold(line('ID', 'NAME', 'TAG'))}\n` : ''}${lines.join('\n')}\n`;
}

/**
 * CSV as import reads it: a header, then a plant a line, a field quoted where it holds a comma, a
 * quote or a line break. CSV cannot carry an empty tag (an empty cell is none), a NUL (import
 * refuses them) or a lone surrogate (UTF-8 has none): such plants are left out, each named on
 * stderr, and the exit code is 1. NDJSON carries every plant.
 */
async function writeCsv(result: PlantsListed, io: IOStreams): Promise<void> {
  if (!(await writeInTurn(io.stdout, 'id,name,tag\n'))) return;
  await writePagesInTurn(result, io, async (page) => {
    const lines: string[] = [];
    const left: string[] = [];
    for (const plant of page) {
      if (!csvCarries(plant)) {
        result.notWritten.push(plant.id);
        left.push(
          `plants list: plant ${plant.id} cannot be written as CSV (an empty tag, a NUL or a lone surrogate): ` +
            'use --format ndjson\n',
        );
        continue;
      }
      lines.push(`${plant.id},${csvField(plant.name)},${plant.tag === undefined ? '' : csvField(plant.tag)}`);
    }
    // A store of plants CSV cannot carry makes as many messages: they wait for stderr's reader too.
    if (left.length > 0) await writeInTurn(io.stderr, left.join(''));
    return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
  });
}

// eslint-disable-next-line no-control-regex -- a NUL is what is looked for
const NOT_IN_CSV = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function csvCarries(plant: NewPlant): boolean {
  return plant.tag !== '' && !NOT_IN_CSV.test(plant.name) && (plant.tag === undefined || !NOT_IN_CSV.test(plant.tag));
}

/** One JSON document: an array of the plants (or of the fields asked), ids exact, written as they come; or a count. */
export async function renderJson(result: ListResult, io: IOStreams): Promise<void> {
  if ('count' in result) return writeJsonDocument(io, { count: result.count });
  const { fields } = result;
  // Whole plants into one reused buffer (encode-plants.ts); the fields asked, a line at a time.
  const encode = (page: NewPlant[], head: string) =>
    fields === undefined
      ? encodePlants(page, head, ',\n  ', '')
      : `${head}${page.map((plant) => encodeFields(plant, fields)).join(',\n  ')}`;
  let count = 0;
  try {
    const written = await writePagesInTurn(result, io, (page) => {
      const text = encode(page, `${count === 0 ? '[' : ','}\n  `);
      count += page.length;
      return text;
    });
    if (!written) return;
  } catch (error) {
    // Before the first page, the failure is the document; after it, stdout holds half of one.
    throw count === 0 ? error : new FailedMidDocument(error);
  }
  io.stdout.write(count === 0 ? '[]\n' : '\n]\n');
}

export function exitCode(result: ListResult): number {
  return 'notWritten' in result && result.notWritten.length > 0 ? 1 : 0;
}
