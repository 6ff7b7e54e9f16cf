import { formatFromName, FORMATS } from '../../../import/formats.js';
import { BULK_FLAGS, bulkOptions } from '../../bulk/flags.js';
import { declareCommand, usageError } from '../../command-spec.js';
import type { ImportOptions } from './import-rows.js';

export const command = declareCommand({
  name: 'import',
  summary: 'create many plants from an NDJSON, CSV or JSON file (or - for stdin), on the service or --local',
  description:
    'Formats: NDJSON (one NewPlant object per line), CSV (a header row id,name,tag; tag may be empty), JSON ' +
    '(an array of NewPlant objects). A row may be at most 64 KiB.',
  arguments: [
    { name: 'file', description: 'the file to import, or - for standard input', required: true, completes: 'file' },
  ],
  flags: {
    format: {
      kind: 'string',
      value: '<format>',
      description: 'ndjson, csv or json',
      defaultFrom:
        'from the file extension, else from its first line: [ JSON, { NDJSON, CSV where it holds a comma or is the ' +
        "header id, else NDJSON; a first line that shows another format than the extension, or plants list's table, " +
        'is refused, saying so',
      choices: FORMATS,
    },
    onConflict: {
      kind: 'string',
      value: '<what>',
      description:
        'a row whose id exists: fail (the row failed), skip (already there), or update (the row replaces the ' +
        'plant: its name, and its tag or none)',
      default: 'fail',
      choices: ['fail', 'skip', 'update'],
    },
    ...BULK_FLAGS,
  },
  examples: [
    'plants import plants.csv --on-conflict skip --rejects rejected.ndjson',
    'plants import changes.ndjson --on-conflict update --dry-run',
    'plants list --format ndjson | plants import - --local',
  ],
  exitCodes: {
    ok: 'every row created, skipped or brought up to date',
    refused: 'some rows failed',
    usage: 'the input is unreadable, or a usage error',
    auth: true,
    unavailable: 'the service or store could not be used (the summary says what was created)',
    interrupted:
      'interrupted by SIGHUP (its terminal closed), Ctrl-C (SIGINT) or SIGTERM: the rows read were imported; ' +
      'the summary says how many',
  },
  options: ({ flags, args }): ImportOptions => {
    const { onConflict } = flags;
    const options = {
      ...bulkOptions('import', flags, {
        file: args.file,
        format: flags.format,
        onNoop: onConflict === 'skip' ? 'skip' : 'fail',
      }),
      updates: onConflict === 'update',
    };
    // Rejects are rows as they were read (a name that is a number, a line that is not JSON): CSV
    // cannot carry them, and a .csv name would make plants import read the file back as CSV.
    if (options.rejects !== undefined && formatFromName(options.rejects) === 'csv') {
      throw usageError(
        'import',
        `--rejects ${JSON.stringify(options.rejects)}: rejects are written as NDJSON (or a JSON array for a ` +
          '.json name), which CSV cannot hold: name it .ndjson',
      );
    }
    return options;
  },
  load: () => import('./run.js'),
});
