import type { ImportTally } from './outcomes.js';
import type { Row, ValidRow } from './rows.js';
import type { ImportSettings } from './settings.js';

/**
 * Counts a row read and decides whether it goes to the store: not once the import has stopped,
 * not when it is invalid, not under --dry-run (where a valid row is only counted).
 */
export function admit(row: Row, tally: ImportTally, settings: ImportSettings): row is ValidRow {
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
