import type { Command } from 'commander';
import { PlantsError } from '../../../core/errors.js';
import { FORMATS, type Format } from '../../../import/formats.js';
import { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_SECONDS } from '../../config/settings.js';
import type { Dispatch } from '../../program.js';

export interface ImportOptions {
  /** A path, or `-` for standard input. */
  input: string;
  format?: Format;
  local: boolean;
  store?: string;
  dryRun: boolean;
  onConflict: 'fail' | 'skip';
  failFast: boolean;
  rejects?: string;
  report?: string;
  concurrency: number;
  baseUrl?: string;
  token?: string;
  timeout?: string;
  json: boolean;
}

const DEFAULT_CONCURRENCY = 16;

export function defineImport(program: Command, dispatch: Dispatch): void {
  program
    .command('import <file>')
    .description('create many plants from an NDJSON, CSV or JSON file (or - for stdin), on the service or --local')
    .option('--format <format>', 'ndjson, csv or json (default: from the file extension)')
    .option('--local', 'import into the local JSON file store instead of the service')
    .option('--store <path>', 'with --local: the store file')
    .option('--dry-run', 'validate every row, send nothing')
    .option('--on-conflict <what>', 'a duplicate id: fail (the row failed) or skip (already there)', 'fail')
    .option('--fail-fast', 'stop at the first failed row')
    .option('--rejects <file>', 'write each row not created to FILE, as NDJSON that plants import can retry')
    .option('--report <file>', 'write the summary and every failure (line, id, error, message) to FILE as JSON')
    .option('--concurrency <n>', `requests in flight to the service (default ${DEFAULT_CONCURRENCY})`)
    .option('--base-url <url>', `service address (default: $PLANTS_BASE_URL, config, or ${DEFAULT_BASE_URL})`)
    .option('--token <token>', 'bearer token (prefer plants login)')
    .option('--timeout <seconds>', `seconds to wait to connect, and for each answer (default ${DEFAULT_TIMEOUT_SECONDS})`)
    .option('--json', 'print the summary and every failure as one JSON document on stdout')
    .addHelpText(
      'after',
      '\nFormats: NDJSON (one NewPlant object per line), CSV (a header row id,name,tag; tag may be empty),\n' +
        'JSON (an array of NewPlant objects; read whole, so prefer NDJSON or CSV for very large inputs).\n\n' +
        'Exit codes: 0 every row created or skipped, 1 some rows failed, 2 the input is unreadable,\n' +
        '3 authentication, 4 the service or store could not be used (the summary says what was created),\n' +
        '130 interrupted by Ctrl-C (143: SIGTERM): the rows read were imported; the summary says how many.\n\n' +
        'Examples:\n  plants import plants.csv --on-conflict skip --rejects rejected.ndjson\n  cat plants.ndjson | plants import - --format ndjson --local',
    )
    .action((input: string, raw: Record<string, string | boolean | undefined>) => dispatch('import', toImportOptions(input, raw)));
}

function toImportOptions(input: string, raw: Record<string, string | boolean | undefined>): ImportOptions {
  const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : undefined);
  const onConflict = text('onConflict') ?? 'fail';
  if (onConflict !== 'fail' && onConflict !== 'skip') throw usage(`--on-conflict must be fail or skip, got ${JSON.stringify(onConflict)}`);
  const format = text('format');
  if (format !== undefined && !FORMATS.includes(format as Format)) throw usage(`--format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  const concurrencyText = text('concurrency') ?? String(DEFAULT_CONCURRENCY);
  const concurrency = Number(concurrencyText);
  if (!/^\d+$/.test(concurrencyText) || concurrency < 1 || concurrency > 256) throw usage(`--concurrency must be a whole number from 1 to 256, got ${JSON.stringify(concurrencyText)}`);
  const options: ImportOptions = {
    input,
    local: raw.local === true,
    dryRun: raw.dryRun === true,
    onConflict,
    failFast: raw.failFast === true,
    concurrency,
    json: raw.json === true,
  };
  if (format !== undefined) options.format = format as Format;
  for (const key of ['store', 'rejects', 'report', 'baseUrl', 'token', 'timeout'] as const) {
    const value = text(key);
    if (value !== undefined) options[key] = value;
  }
  if (options.local && (options.baseUrl ?? options.token ?? options.timeout) !== undefined) throw usage('--base-url, --token and --timeout cannot be used with --local');
  if (!options.local && options.store !== undefined) throw usage('--store only applies to --local imports: add --local, or drop --store');
  return options;
}

function usage(message: string): PlantsError {
  return new PlantsError('usage', message, { hint: 'see plants import --help' });
}
