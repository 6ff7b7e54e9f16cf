import type { Consumed } from '../../import/records.js';
import type { PlantsClient } from '../../client/client-options.js';
import type { PlantsError } from '../../core/errors.js';
import type { PlantStore } from '../../core/store.js';
import type { Counts, RowFailure } from '../../import/outcomes.js';
import type { Row, ValidRow } from '../../import/row.js';
import type { BatchWork } from '../../import/store-batches.js';
import type { RequestWork } from '../../import/service-workers.js';
import type { OutputOptions } from '../command-spec.js';
import type { StopSignal } from '../exit-codes.js';
import type { Target } from '../target-flags.js';
import type { Rejected, RejectsFormat } from './rejects.js';

/** The options of bulk work from a file: `plants import FILE`, `plants delete --from FILE`. */
export interface BulkOptions<Format extends string> extends OutputOptions {
  /** A path, or `-` for standard input. */
  input: string;
  format?: Format;
  target: Target;
  dryRun: boolean;
  /** A row that changes nothing (--on-conflict, --on-missing): fail, or skip it as done already. */
  onNoop: 'fail' | 'skip';
  failFast: boolean;
  rejects?: string;
  report?: string;
  concurrency: number;
}

/** What one kind of bulk work is: how rows are read, and what each row's work is, locally and remotely. */
export interface BulkKind<T, Format extends string> {
  /** What the work of a row is called, in the counts and the summary: `created`, `deleted`. */
  done: 'created' | 'deleted';
  /**
   * The words of the summary: `Imported 3 rows into …`, `Read 3 ids to delete from …`, and how to do the rest after an
   * interruption.
   */
  summary: SummaryWords;
  /**
   * The format of an input (a path, or `-`) where --format gives none: the one its name says, else
   * the one its head shows (its first line that is not blank; `ended`: the input ended within
   * it); undefined when it shows none (a head all blank). Throws `unreadable_input` for an input
   * that cannot be read as it is, saying what it looks like.
   */
  formatOf(input: string, head: Buffer, ended: boolean): Format | undefined;
  /** The rows of `input`; `consumed` says how far into it the rows handed out reach. */
  rows(input: AsyncIterable<Buffer | string>, format: Format, consumed: Consumed): AsyncIterable<Row<T>[]>;
  /** A valid row not done, as --rejects keeps it: what it asks for, as the same command reads it back. */
  rejected(row: ValidRow<T>): Rejected;
  /** The format of --rejects FILE: the one the same command reads FILE in. */
  rejectsFormat(path: string): RejectsFormat;
  onStore(store: PlantStore): { work: BatchWork<T>; noopError: (row: ValidRow<T>) => PlantsError };
  onService(client: PlantsClient): RequestWork<T>;
  /**
   * What a dry run checks of each valid row, writing nothing: in a local store (read only), what
   * its work would come to; through the service, what needs no request, or for work that updates
   * what it reads. Made afresh for each run: a check may remember the rows before (an id repeated).
   */
  check: {
    onStore(store: PlantStore): BatchWork<T>;
    onService(client: PlantsClient): RequestWork<T>;
  };
  /**
   * Work that replaces what is there (`import --on-conflict update`): rows are created, updated or unchanged, never a
   * no-op.
   */
  updates?: true;
}

export interface SummaryWords {
  verb: string;
  /** The verb where rows were read and none was done (`Imported none of`); else `verb` says it. */
  noneDone?: string;
  preposition: string;
  /** What a row is: `row`, `id`. */
  unit: string;
  /** The hint after an interruption. */
  rest: string;
  /** The summary names the input the rows were read from. */
  namesInput?: true;
}

export interface BulkResult {
  input: string;
  target: string;
  dryRun: boolean;
  done: 'created' | 'deleted';
  /** Rows may update plants (--on-conflict update): the counts tell created, updated and unchanged. */
  updates: boolean;
  summary: SummaryWords;
  counts: Counts;
  failures: RowFailure[];
  stoppedBy?: PlantsError;
  /** SIGINT, SIGTERM or SIGHUP: the work stopped reading there; every row it read is in the counts. */
  interrupted?: StopSignal;
  elapsedMs: number;
  rejects?: string;
  /** Rows written to --rejects: every row not done, but those over the size limit. */
  rejectsWritten?: number;
  /** The --rejects or --report file could not be written in full. */
  outputErrors: string[];
}
