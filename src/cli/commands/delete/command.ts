import { ID_FORMATS } from '../../../import/formats.js';
import { BULK_FLAGS, bulkOptions } from '../../bulk/flags.js';
import { declareCommand, flagName, jsonFieldsFlag, jsonOutput, usageError } from '../../command-spec.js';
import { idArgument } from '../../id-argument.js';
import { targetOptions } from '../../target-flags.js';
import type { DeleteOptions } from './run.js';

/** Flags of many deletes only. */
const FROM_ONLY = ['format', 'onMissing', 'dryRun', 'failFast', 'rejects', 'report', 'concurrency'] as const;

export const command = declareCommand({
  name: 'delete',
  summary: 'delete a plant by its id, or many from a file of ids (or what plants list writes)',
  description:
    'With --from, the same summary, --rejects, --report, --json and exit codes as plants import. --rejects ' +
    'FILE holds each row not deleted as {"id":…} (a row that failed, as it was read), in the format the name ' +
    'of FILE says (.csv, .json), else NDJSON: plants delete --from FILE retries them.' +
    '\n\nWith --from, on a terminal, it says how many ids the file holds and asks before it deletes them (y or ' +
    'yes goes on; anything else deletes nothing, exit 2); --yes deletes without asking, and is needed where nobody ' +
    'can answer: in a pipe, and with --from - (standard input holds the ids). A single delete never asks.',
  arguments: [{ name: 'id', description: 'the plant id: a base-10 integer (or give it with --id)', required: false }],
  flags: {
    id: { kind: 'string', value: '<id>', description: 'the plant id, as a flag' },
    from: {
      kind: 'string',
      value: '<file>',
      description: "delete every id of FILE (or - for stdin): an id a line, plants list's table, or NDJSON, CSV, JSON",
      completes: 'file',
    },
    format: {
      kind: 'string',
      value: '<format>',
      description: "with --from: ids, table (plants list's lines: id, name, tag), ndjson, csv or json",
      defaultFrom: 'from the name, else from the first line',
      choices: ID_FORMATS,
    },
    onMissing: {
      kind: 'string',
      value: '<what>',
      description: 'with --from, an id not there: fail (the row failed) or skip (gone already)',
      default: 'fail',
      choices: ['fail', 'skip'],
    },
    yes: {
      kind: 'boolean',
      description: 'with --from: delete without asking first (needed where nobody can answer: a pipe, standard input)',
    },
    ...BULK_FLAGS,
    // The document of a delete of one id, {"deleted":true,"id":…}; --from writes its summary, whole.
    json: jsonFieldsFlag(['deleted', 'id'], 'a delete of one id'),
  },
  examples: [
    'plants delete 1',
    'plants delete --from ids.txt',
    '# from a pipe: --yes, as nobody can answer there',
    'plants list --tag weed --format ndjson | plants delete --from - --yes',
  ],
  exitCodes: {
    ok: 'deleted (with --from: every id deleted, or skipped)',
    refused: 'no plant with the id (with --from: some rows failed)',
    usage:
      'a bad id, or an unreadable input; with --from, no --yes where nobody can answer, or an answer other than yes ' +
      '(nothing deleted)',
    auth: true,
    unavailable: 'the service or store could not be used',
    interrupted:
      'with --from: interrupted by SIGHUP (its terminal closed), Ctrl-C (SIGINT) or SIGTERM, after its summary',
  },
  options: ({ flags, args, given }): DeleteOptions => {
    const id = idArgument('delete', { argument: args.id, flag: flags.id });
    const { from } = flags;
    const { json, fields } = jsonOutput(flags.json);
    if ((id === undefined) === (from === undefined))
      throw usageError('delete', 'give the plant with --id, or a file of them with --from (one of the two)');
    if (from !== undefined) {
      const whole = '--from --json writes its whole summary: it takes no fields';
      if (fields !== undefined) throw usageError('delete', whole);
      const input = { file: from, format: flags.format, onNoop: flags.onMissing };
      const bulk = bulkOptions('delete', { ...flags, json }, input);
      return { many: true, bulk, yes: flags.yes, json };
    }
    const extra = FROM_ONLY.filter((key) => given.has(key));
    if (extra.length > 0) throw usageError('delete', `${extra.map(flagName).join(', ')} only apply with --from`);
    const target = targetOptions('delete', flags);
    return { many: false, id: id as string, target, json, ...(fields === undefined ? {} : { fields }) };
  },
  load: () => import('./run.js'),
});
