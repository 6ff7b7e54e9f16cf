import { PlantsError } from '../core/errors.js';
import type { Row } from './rows.js';
import type { ImportSettings } from './settings.js';

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
  created: number;
  /** Duplicates under --on-conflict skip. */
  skipped: number;
  /** Valid rows under --dry-run. */
  valid: number;
  /** Invalid rows, and rows the store refused. */
  failed: number;
  /** Sent, but the answer never came: the plant may or may not exist. */
  unknown: number;
  /** Not sent because the import stopped (401, service gone, --fail-fast). */
  notSent: number;
}

export interface ImportListener {
  /** Called for every row that did not end up created or skipped: write it to --rejects. */
  onReject?(row: Row): void;
}

/**
 * The account of an import: every row read lands in exactly one count, so a stopped import can
 * say exactly what was created and what was not. Once stopped (a fatal error, or --fail-fast),
 * sinks send nothing more, and the remaining rows are counted as not sent.
 */
export class ImportTally {
  readonly counts: Counts = { read: 0, created: 0, skipped: 0, valid: 0, failed: 0, unknown: 0, notSent: 0 };
  readonly failures: RowFailure[] = [];
  /** The error that made going on pointless: a refused token, the service or store gone. */
  stoppedBy: PlantsError | undefined;
  private halted = false;

  constructor(private readonly listener: ImportListener = {}) {}

  get stopped(): boolean {
    return this.halted || this.stoppedBy !== undefined;
  }

  /** Stops the import because of an error no further row can get past. */
  stop(error: PlantsError): void {
    this.stoppedBy ??= error;
  }

  /** Stops the import on purpose (--fail-fast). */
  halt(): void {
    this.halted = true;
  }

  read(): void {
    this.counts.read += 1;
  }

  created(): void {
    this.counts.created += 1;
  }

  skipped(): void {
    this.counts.skipped += 1;
  }

  valid(): void {
    this.counts.valid += 1;
  }

  /** A row refused (invalid, or its id taken): failed; with --fail-fast, the import stops there. */
  failed(row: Row, error: PlantsError, settings: Pick<ImportSettings, 'failFast'>): void {
    this.counts.failed += 1;
    this.reject(row, error);
    if (settings.failFast) this.halt();
  }

  /** A row whose id is taken: skipped with --on-conflict skip, else failed. */
  duplicate(row: Row, error: PlantsError, settings: Pick<ImportSettings, 'failFast' | 'onConflict'>): void {
    if (settings.onConflict === 'skip') this.skipped();
    else this.failed(row, error, settings);
  }

  unknown(row: Row, error: PlantsError): void {
    this.counts.unknown += 1;
    this.reject(row, error);
  }

  /** Counted and handed to --rejects, but not listed one by one: after a stop there may be millions. */
  notSent(row: Row): void {
    this.counts.notSent += 1;
    this.listener.onReject?.(row);
  }

  private reject(row: Row, error: PlantsError): void {
    const id = row.error === undefined ? row.plant.id : row.id;
    const failure: RowFailure = {
      ...row.at,
      ...(id === undefined ? {} : { id }),
      code: error.code,
      error: error.error,
      message: error.message,
      ...(error.issues.length > 0 ? { issues: error.issues } : {}),
    };
    this.failures.push(failure);
    this.listener.onReject?.(row);
  }
}
