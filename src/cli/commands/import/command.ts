import { FORMATS, type Format } from '../../../import/formats.js';
import { bool, JSON_FLAG, text, usageError, type CommandSpec } from '../../command-spec.js';
import { TARGET_FLAGS, targetOptions } from '../../target.js';
import type { ImportOptions } from './types.js';

const DEFAULT_CONCURRENCY = 16;

export const command: CommandSpec<ImportOptions> = {
  name: 'import',
  summary: 'create many plants from an NDJSON, CSV or JSON file (or - for stdin), on the service or --local',
  arguments: [{ name: 'file', description: 'the file to import, or - for standard input', required: true, completes: 'file' }],
  flags: [
    { flags: '--format <format>', description: 'ndjson, csv or json (default: from the file extension)', completes: FORMATS },
    ...TARGET_FLAGS,
    { flags: '--dry-run', description: 'validate every row, send nothing' },
    { flags: '--on-conflict <what>', description: 'a duplicate id: fail (the row failed) or skip (already there) (default: "fail")', completes: ['fail', 'skip'] },
    { flags: '--fail-fast', description: 'stop at the first failed row' },
    { flags: '--rejects <file>', description: 'write each row not created to FILE, as NDJSON that plants import can retry', completes: 'file' },
    { flags: '--report <file>', description: 'write the summary and every failure (line, id, error, message) to FILE as JSON', completes: 'file' },
    { flags: '--concurrency <n>', description: `requests in flight to the service (default ${DEFAULT_CONCURRENCY})` },
    JSON_FLAG,
  ],
  help:
    '\nFormats: NDJSON (one NewPlant object per line), CSV (a header row id,name,tag; tag may be empty),\n' +
    'JSON (an array of NewPlant objects). A row may be at most 64 KiB.\n\n' +
    'Exit codes: 0 every row created or skipped, 1 some rows failed, 2 the input is unreadable,\n' +
    '3 authentication, 4 the service or store could not be used (the summary says what was created),\n' +
    '130 interrupted by Ctrl-C (143: SIGTERM): the rows read were imported; the summary says how many.\n\n' +
    'Examples:\n  plants import plants.csv --on-conflict skip --rejects rejected.ndjson\n  cat plants.ndjson | plants import - --format ndjson --local',
  options: (input) => {
    const usage = (message: string) => usageError('import', message);
    const onConflict = text(input, 'onConflict') ?? 'fail';
    if (onConflict !== 'fail' && onConflict !== 'skip') throw usage(`--on-conflict must be fail or skip, got ${JSON.stringify(onConflict)}`);
    const format = text(input, 'format');
    if (format !== undefined && !FORMATS.includes(format as Format)) throw usage(`--format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
    const concurrencyText = text(input, 'concurrency') ?? String(DEFAULT_CONCURRENCY);
    const concurrency = Number(concurrencyText);
    if (!/^\d+$/.test(concurrencyText) || concurrency < 1 || concurrency > 256) throw usage(`--concurrency must be a whole number from 1 to 256, got ${JSON.stringify(concurrencyText)}`);
    const rejects = text(input, 'rejects');
    const report = text(input, 'report');
    return {
      input: input.args[0] as string,
      ...(format === undefined ? {} : { format: format as Format }),
      target: targetOptions('import', input),
      dryRun: bool(input, 'dryRun'),
      onConflict,
      failFast: bool(input, 'failFast'),
      ...(rejects === undefined ? {} : { rejects }),
      ...(report === undefined ? {} : { report }),
      concurrency,
      json: bool(input, 'json'),
    };
  },
  load: () => import('./run.js'),
};
