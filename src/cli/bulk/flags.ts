import { bool, JSON_FLAG, text, usageError, type FlagSpec, type ParsedInput } from '../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../target.js';
import type { BulkOptions } from './types.js';

const DEFAULT_CONCURRENCY = 16;

/** The flags of bulk work from a file, but for its input, its format and what a no-op row is called. */
export const BULK_FLAGS: readonly FlagSpec[] = [
  ...TARGET_FLAGS,
  { flags: '--dry-run', description: 'check every row, do nothing' },
  { flags: '--fail-fast', description: 'stop at the first failed row' },
  { flags: '--rejects <file>', description: 'write each row not done to FILE, in a form the same command reads back', completes: 'file' },
  { flags: '--report <file>', description: 'write the summary and every failure (line, id, error, message) to FILE as JSON', completes: 'file' },
  { flags: '--concurrency <n>', description: `requests in flight to the service (default ${DEFAULT_CONCURRENCY})` },
  JSON_FLAG,
];

/**
 * The options of bulk work from the flags: `noop` is the flag that says what to do with a row
 * that changes nothing (`--on-conflict`, `--on-missing`), `formats` the formats it may name.
 */
export function bulkOptions<Format extends string>(command: string, input: ParsedInput, file: string, noop: { key: string; flag: string }, formats: readonly Format[]): BulkOptions<Format> {
  const usage = (message: string) => usageError(command, message);
  const onNoop = text(input, noop.key) ?? 'fail';
  if (onNoop !== 'fail' && onNoop !== 'skip') throw usage(`${noop.flag} must be fail or skip, got ${JSON.stringify(onNoop)}`);
  const format = text(input, 'format');
  if (format !== undefined && !formats.includes(format as Format)) throw usage(`--format must be one of ${formats.join(', ')}, got ${JSON.stringify(format)}`);
  const concurrencyText = text(input, 'concurrency') ?? String(DEFAULT_CONCURRENCY);
  const concurrency = Number(concurrencyText);
  if (!/^\d+$/.test(concurrencyText) || concurrency < 1 || concurrency > 256) throw usage(`--concurrency must be a whole number from 1 to 256, got ${JSON.stringify(concurrencyText)}`);
  const rejects = text(input, 'rejects');
  const report = text(input, 'report');
  return {
    input: file,
    ...(format === undefined ? {} : { format: format as Format }),
    target: targetOptions(command, input),
    dryRun: bool(input, 'dryRun'),
    onNoop,
    failFast: bool(input, 'failFast'),
    ...(rejects === undefined ? {} : { rejects }),
    ...(report === undefined ? {} : { report }),
    concurrency,
    json: bool(input, 'json'),
  };
}
