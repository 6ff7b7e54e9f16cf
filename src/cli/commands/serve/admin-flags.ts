import type { PlantsError } from '../../../core/errors.js';
import { usageError } from '../../command-spec.js';

/** The longest --shutdown-delay: a drain longer than an hour is a mistake, not a plan. */
export const MAX_SHUTDOWN_DELAY_SECONDS = 3600;

/** A port from a flag or the environment (`what` names it in the message), or a usage error. */
export function portOf(text: string, what: string): number | PlantsError {
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    return usageError('serve', `${what} must be a number from 0 to 65535, got ${JSON.stringify(text)}`);
  return Number(text);
}

/** --shutdown-delay's seconds: a decimal number from 0 to MAX_SHUTDOWN_DELAY_SECONDS. */
export function shutdownDelayOf(text: string): number | PlantsError {
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) > MAX_SHUTDOWN_DELAY_SECONDS) {
    return usageError(
      'serve',
      `--shutdown-delay must be a number of seconds from 0 to ${MAX_SHUTDOWN_DELAY_SECONDS}, got ` +
        `${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}
