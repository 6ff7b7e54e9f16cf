import type { PlantsError } from '../core/errors.js';
import type { BulkSettings, Row, RowOutcome } from './row.js';

/** One failed (or unsent, or uncertain) row, as reported in --json and --report. */
export interface RowFailure {
  line?: number;
  index?: number;
  id?: bigint;
  code: string;
  error: number;
  message: string;
  issues?: readonly { path: string; message: string }[];
}

export interface Counts {
  /** Rows read from the input. */
  read: number;
  /** Rows whose work was done: plants created, plants deleted. */
  done: number;
  /** Rows that changed nothing, counted as done already (--on-conflict skip, --on-missing skip). */
  skipped: number;
  /** --on-conflict update: rows that replaced a plant of their id. */
  updated: number;
  /** --on-conflict update: rows equal to the plant of their id: nothing written. */
  unchanged: number;
  /** Valid rows under --dry-run. */
  valid: number;
  /** Invalid rows, and rows the store refused. */
  failed: number;
  /** Sent, but the answer never came: whether it was done is not known. */
  unknown: number;
  /** Not sent because the work stopped (401, the service gone, --fail-fast, a signal). */
  notSent: number;
}

export interface TallyListener<T> {
  /** Called for every row that did not end up done or skipped: write it to --rejects. */
  onReject?(row: Row<T>): void;
}

/**
 * The account of bulk work: every row read lands in exactly one count, so work that stopped can
 * say exactly what was done and what was not. Once stopped (a fatal error, or --fail-fast),
 * nothing more is sent, and the remaining rows are counted as not sent.
 */
export class BulkTally<T> {
  readonly counts: Counts = {
    read: 0,
    done: 0,
    skipped: 0,
    updated: 0,
    unchanged: 0,
    valid: 0,
    failed: 0,
    unknown: 0,
    notSent: 0,
  };
  readonly failures: RowFailure[] = [];
  /** The error that made going on pointless: a refused token, the service or store gone. */
  stoppedBy: PlantsError | undefined;
  private halted = false;

  constructor(private readonly listener: TallyListener<T> = {}) {}

  get stopped(): boolean {
    return this.halted || this.stoppedBy !== undefined;
  }

  /** Stops the work because of an error no further row can get past. */
  stop(error: PlantsError): void {
    this.stoppedBy ??= error;
  }

  /** Stops the work on purpose (--fail-fast). */
  halt(): void {
    this.halted = true;
  }

  read(): void {
    this.counts.read += 1;
  }

  valid(): void {
    this.counts.valid += 1;
  }

  /** A row whose work was done: created or deleted, or for an import that updates, replaced or so already. */
  done(outcome: Exclude<RowOutcome, 'noop'> = 'done'): void {
    if (outcome === 'updated') this.counts.updated += 1;
    else if (outcome === 'unchanged') this.counts.unchanged += 1;
    else if (outcome === 'valid') this.counts.valid += 1;
    else this.counts.done += 1;
  }

  /** A row refused (invalid, or by the store): failed; with --fail-fast, the work stops there. */
  failed(row: Row<T>, error: PlantsError, settings: Pick<BulkSettings, 'failFast'>): void {
    this.counts.failed += 1;
    this.reject(row, error);
    if (settings.failFast) this.halt();
  }

  /** A row that changes nothing (its id taken, or not there): skipped if asked, else failed. */
  noop(row: Row<T>, error: PlantsError, settings: Pick<BulkSettings, 'failFast' | 'onNoop'>): void {
    if (settings.onNoop === 'skip') this.counts.skipped += 1;
    else this.failed(row, error, settings);
  }

  unknown(row: Row<T>, error: PlantsError): void {
    this.counts.unknown += 1;
    this.reject(row, error);
  }

  /** Counted and handed to --rejects, but not listed one by one: after a stop there may be millions. */
  notSent(row: Row<T>): void {
    this.counts.notSent += 1;
    this.listener.onReject?.(row);
  }

  private reject(row: Row<T>, error: PlantsError): void {
    const failure: RowFailure = {
      ...row.at,
      ...(row.id === undefined ? {} : { id: row.id }),
      code: error.code,
      error: error.error,
      message: error.message,
      ...(error.issues.length > 0 ? { issues: error.issues } : {}),
    };
    this.failures.push(failure);
    this.listener.onReject?.(row);
  }
}

/**
 * Failures in the order of their rows in the input, by line (or array index), as a person reads
 * the input: they are counted as they come, and requests in flight answer in any order, as a
 * batch's rows that change nothing are counted after the invalid rows read with it. Sorted once,
 * at the end, in place.
 */
export function inInputOrder(failures: RowFailure[]): RowFailure[] {
  return failures.sort((a, b) => (a.line ?? a.index ?? 0) - (b.line ?? b.index ?? 0));
}
