import type { PlantsError } from '../../../core/errors.js';
import type { Format } from '../../../import/formats.js';
import type { Counts, RowFailure } from '../../../import/outcomes.js';
import type { OutputOptions } from '../../command-spec.js';
import type { Target } from '../../target.js';

export interface ImportOptions extends OutputOptions {
  /** A path, or `-` for standard input. */
  input: string;
  format?: Format;
  target: Target;
  dryRun: boolean;
  onConflict: 'fail' | 'skip';
  failFast: boolean;
  rejects?: string;
  report?: string;
  concurrency: number;
}

export interface ImportResult {
  input: string;
  target: string;
  dryRun: boolean;
  counts: Counts;
  failures: RowFailure[];
  stoppedBy?: PlantsError;
  /** SIGINT or SIGTERM: the import stopped reading there; every row it read is in the counts. */
  interrupted?: string;
  elapsedMs: number;
  rejects?: string;
  /** Rows written to --rejects: every row not created, but those over the size limit. */
  rejectsWritten?: number;
  /** The --rejects or --report file could not be written in full. */
  outputErrors: string[];
}
