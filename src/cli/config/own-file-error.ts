import { PlantsError } from '../../core/errors.js';
import { RenamedNotDurable } from '../../fs/durable-file.js';
import { ioReason } from '../../fs/io-reason.js';
import { unchangedHint } from '../../store/store-errors.js';

/**
 * A file of plants' own (the config file, the token file of `plants serve`) that could not be
 * written: `config_io`, exit 4, as for a store that cannot be written, not a usage error (nothing
 * the user typed was wrong). It is as it was, unless the failure came after it was replaced.
 * `what` names it ("the config file"); `remedy` is the hint for a failure other than a full disk.
 */
export function ownFileWriteError(what: string, path: string, error: unknown, remedy: string): PlantsError {
  if (error instanceof RenamedNotDurable) {
    return new PlantsError(
      'config_io',
      `${what} ${path} was written, but may not survive a crash: ${ioReason(error.cause)}`,
      { cause: error },
    );
  }
  return new PlantsError('config_io', `could not write ${what} ${path}: ${ioReason(error)}`, {
    cause: error,
    hint: unchangedHint(error, what).hint ?? remedy,
  });
}
