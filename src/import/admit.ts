import type { BulkTally } from './outcomes.js';
import type { BulkSettings, Row, ValidRow } from './row.js';

/**
 * Counts a row read and decides whether its work is done: not once the work has stopped, not when
 * the row is invalid, not under --dry-run (where a valid row is only counted).
 */
export function admit<T>(row: Row<T>, tally: BulkTally<T>, settings: BulkSettings): row is ValidRow<T> {
  tally.read();
  if (tally.stopped) {
    tally.notSent(row);
    return false;
  }
  if (row.error !== undefined) {
    tally.failed(row, row.error, settings);
    return false;
  }
  if (settings.dryRun) {
    tally.valid();
    return false;
  }
  return true;
}
