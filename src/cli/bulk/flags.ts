import { JSON_FLAG, usageError, type Flags, type FlagValues } from '../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../target-flags.js';
import type { BulkOptions } from './types.js';

/** The flags of bulk work from a file, but for its input, its format and what a no-op row is called. */
export const BULK_FLAGS = {
  ...TARGET_FLAGS,
  dryRun: { kind: 'boolean', description: 'check every row, do nothing' },
  failFast: { kind: 'boolean', description: 'stop at the first failed row' },
  rejects: {
    kind: 'string',
    value: '<file>',
    description: 'write each row not done to FILE, in a form the same command reads back',
    completes: 'file',
  },
  report: {
    kind: 'string',
    value: '<file>',
    description: 'write the summary and every failure (line, id, error, message) to FILE as JSON',
    completes: 'file',
  },
  concurrency: {
    kind: 'string',
    value: '<n>',
    description: 'requests in flight to the service, from 1 to 256',
    default: '16',
  },
  json: JSON_FLAG,
} as const satisfies Flags;

/**
 * The options of bulk work from the flags: `onNoop` says what to do with a row that changes
 * nothing (`--on-conflict`, `--on-missing`).
 */
export function bulkOptions<Format extends string>(
  command: string,
  flags: FlagValues<typeof BULK_FLAGS>,
  input: { file: string; format: Format | undefined; onNoop: 'fail' | 'skip' },
): BulkOptions<Format> {
  const { concurrency: concurrencyText, rejects, report, dryRun, failFast, json } = flags;
  const concurrency = Number(concurrencyText);
  if (!/^\d+$/.test(concurrencyText) || concurrency < 1 || concurrency > 256) {
    throw usageError(
      command,
      `--concurrency must be a whole number from 1 to 256, got ${JSON.stringify(concurrencyText)}`,
    );
  }
  return {
    input: input.file,
    ...(input.format === undefined ? {} : { format: input.format }),
    target: targetOptions(command, flags),
    dryRun,
    onNoop: input.onNoop,
    failFast,
    ...(rejects === undefined ? {} : { rejects }),
    ...(report === undefined ? {} : { report }),
    concurrency,
    json,
  };
}
