import { ID_FORMATS } from '../../../import/formats.js';
import { BULK_FLAGS, bulkOptions } from '../../bulk/flags.js';
import { bool, text, usageError, type CommandSpec } from '../../command-spec.js';
import { targetOptions } from '../../target.js';
import type { DeleteOptions } from './types.js';

/** Flags of many deletes only. */
const FROM_ONLY = ['format', 'onMissing', 'dryRun', 'failFast', 'rejects', 'report', 'concurrency'];

export const command: CommandSpec<DeleteOptions> = {
  name: 'delete',
  summary: 'delete a plant by its id, or many from a file of ids (or what plants list writes)',
  flags: [
    { flags: '--id <id>', description: 'the plant id: a base-10 integer' },
    { flags: '--from <file>', description: 'delete every id of FILE (or - for stdin): an id a line, or NDJSON, CSV or JSON plants', completes: 'file' },
    { flags: '--format <format>', description: 'with --from: ids, ndjson, csv or json (default: from the name, else from the first line)', completes: ID_FORMATS },
    { flags: '--on-missing <what>', description: 'with --from, an id not there: fail (the row failed) or skip (gone already) (default: "fail")', completes: ['fail', 'skip'] },
    ...BULK_FLAGS,
  ],
  help:
    '\nWith --from, the same summary, --rejects, --report, --json and exit codes as plants import.\n' +
    '--rejects FILE holds each row not deleted as {"id":…} (a row that failed, as it was read), in the\n' +
    'format the name of FILE says (.csv, .json), else NDJSON: plants delete --from FILE retries them.\n' +
    'Exit codes: 0 deleted, 1 no plant with the id (with --from: some rows failed), 2 a bad id or input,\n' +
    '3 authentication, 4 the service or store could not be used.\n\n' +
    'Examples:\n  plants delete --id 1\n  plants list --local --tag weed --format ndjson | plants delete --local --from -',
  options: (input) => {
    const id = text(input, 'id');
    const from = text(input, 'from');
    if ((id === undefined) === (from === undefined)) throw usageError('delete', 'give the plant with --id, or a file of them with --from (one of the two)');
    if (from !== undefined) return { many: true, bulk: bulkOptions('delete', input, from, { key: 'onMissing', flag: '--on-missing' }, ID_FORMATS), json: bool(input, 'json') };
    const extra = FROM_ONLY.filter((key) => input.flags[key] !== undefined);
    if (extra.length > 0) throw usageError('delete', `${extra.map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} only apply with --from`);
    return { many: false, id: id as string, target: targetOptions('delete', input), json: bool(input, 'json') };
  },
  load: () => import('./run.js'),
};
