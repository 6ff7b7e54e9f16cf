import { formatFromName, FORMATS } from '../../../import/formats.js';
import { BULK_FLAGS, bulkOptions } from '../../bulk/flags.js';
import { usageError, type CommandSpec } from '../../command-spec.js';
import type { ImportOptions } from './types.js';

export const command: CommandSpec<ImportOptions> = {
  name: 'import',
  summary: 'create many plants from an NDJSON, CSV or JSON file (or - for stdin), on the service or --local',
  arguments: [{ name: 'file', description: 'the file to import, or - for standard input', required: true, completes: 'file' }],
  flags: [
    { flags: '--format <format>', description: 'ndjson, csv or json (default: from the file extension, else from its first line: [ JSON, { NDJSON, else CSV)', completes: FORMATS },
    { flags: '--on-conflict <what>', description: 'a duplicate id: fail (the row failed) or skip (already there) (default: "fail")', completes: ['fail', 'skip'] },
    ...BULK_FLAGS,
  ],
  help:
    '\nFormats: NDJSON (one NewPlant object per line), CSV (a header row id,name,tag; tag may be empty),\n' +
    'JSON (an array of NewPlant objects). A row may be at most 64 KiB.\n\n' +
    'Exit codes: 0 every row created or skipped, 1 some rows failed, 2 the input is unreadable,\n' +
    '3 authentication, 4 the service or store could not be used (the summary says what was created),\n' +
    '130 interrupted by Ctrl-C (143: SIGTERM): the rows read were imported; the summary says how many.\n\n' +
    'Examples:\n  plants import plants.csv --on-conflict skip --rejects rejected.ndjson\n  plants list --format ndjson | plants import - --local',
  options: (input) => {
    const options = bulkOptions('import', input, input.args[0] as string, { key: 'onConflict', flag: '--on-conflict' }, FORMATS);
    // Rejects are rows as they were read (a name that is a number, a line that is not JSON): CSV
    // cannot carry them, and a .csv name would make plants import read the file back as CSV.
    if (options.rejects !== undefined && formatFromName(options.rejects) === 'csv') {
      throw usageError('import', `--rejects ${JSON.stringify(options.rejects)}: rejects are written as NDJSON (or a JSON array for a .json name), which CSV cannot hold: name it .ndjson`);
    }
    return options;
  },
  load: () => import('./run.js'),
};
