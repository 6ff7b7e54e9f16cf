import { IMPORT_RETRY } from '../../../client/retry.js';
import { PlantsError } from '../../../core/errors.js';
import { stringifyJson } from '../../../core/json.js';
import type { PlantStore } from '../../../core/store.js';
import { formatFromName } from '../../../import/formats.js';
import { importIntoStore } from '../../../import/local-import.js';
import { ImportTally } from '../../../import/outcomes.js';
import { importThroughService } from '../../../import/remote-import.js';
import { readRows, untilStopped, type Row } from '../../../import/rows.js';
import type { ImportSettings } from '../../../import/settings.js';
import { journalPathOf } from '../../../store/journal.js';
import type { Settings } from '../../config/resolve.js';
import type { Context } from '../../context.js';
import { openLocalStore, serviceClient, targetSettings } from '../../target.js';
import { openInput, openOutput, refuseClobbering, rejectLine, type OutputFile } from './files.js';
import { startProgress } from './progress.js';
import { toJson } from './render.js';
import type { ImportOptions, ImportResult } from './types.js';

export { exitCode, renderHuman, toJson } from './render.js';

export async function run(options: ImportOptions, ctx: Context): Promise<ImportResult> {
  const format = options.format ?? formatFromName(options.input);
  if (format === undefined) {
    throw new PlantsError('usage', `cannot tell the format of ${options.input === '-' ? 'standard input' : options.input}: give --format ndjson, csv or json`);
  }
  const settings = await targetSettings(options.target, ctx);
  const target = options.target.local ? settings.require('store') : settings.require('base-url');
  await refuseClobbering(
    [
      ...(options.rejects === undefined ? [] : [{ flag: '--rejects', path: options.rejects }]),
      ...(options.report === undefined ? [] : [{ flag: '--report', path: options.report }]),
    ],
    [
      options.input === '-' ? { what: 'standard input', identity: ctx.io.stdinFile() } : { what: 'the input', path: options.input },
      ...(options.target.local ? [{ what: 'the store', path: target }, { what: "the store's journal", path: journalPathOf(target) }] : []),
    ],
  );
  const input = await openInput(options.input, ctx.io);
  // Opened in the try below, so that one that cannot be opened closes those opened before it.
  let rejects: OutputFile | undefined;
  let report: OutputFile | undefined;
  let progress: { stop(): void } | undefined;
  let rejectsWritten = 0;
  const writeReject = (row: Row) => {
    const line = rejectLine(row);
    if (line === undefined || rejects === undefined) return;
    rejects.write(`${line}\n`);
    rejectsWritten += 1;
  };
  const tally = new ImportTally(options.rejects === undefined ? {} : { onReject: writeReject });
  const started = ctx.now();
  const outputErrors: string[] = [];
  // A first Ctrl-C (or SIGTERM) stops reading, lets the rows read so far be imported or counted,
  // and ends with the summary, the lock released; a second one kills the process.
  let interrupted: string | undefined;
  let stopListening: () => void = () => undefined;
  const stop = new Promise<void>((stopped) => {
    stopListening = ctx.onStopSignal((signal) => {
      interrupted = signal;
      progress?.stop();
      progress = undefined;
      ctx.io.stderr.write(`plants import: ${signal}: finishing the rows read so far (again to stop at once)\n`);
      stopped();
    });
  });
  try {
    if (options.rejects !== undefined) rejects = await openOutput('--rejects', options.rejects);
    if (options.report !== undefined) report = await openOutput('--report', options.report);
    progress = await startProgress(ctx.io, tally, input.size, input.bytesRead);
    const rows = untilStopped(readRows(input.stream, format), stop);
    const importSettings = { onConflict: options.onConflict, failFast: options.failFast, dryRun: options.dryRun };
    // A dry run validates rows and sends nothing: no store is opened, no token needed.
    if (options.dryRun) await importIntoStore(rows, NOTHING, tally, importSettings);
    else if (options.target.local) await importLocal(rows, settings, tally, importSettings, ctx);
    else await importRemote(rows, options, settings, tally, importSettings, ctx);
  } catch (caught) {
    if (!(caught instanceof PlantsError && caught.code === 'unreadable_input')) throw caught;
    const error = new PlantsError('unreadable_input', `${options.input === '-' ? 'standard input' : options.input}: ${caught.message}`);
    // Input that turns unreadable part way (a CSV quote never closed): stop, and still give the
    // account of the rows already imported.
    if (tally.counts.read === 0) throw error;
    tally.stop(error);
  } finally {
    stopListening();
    progress?.stop();
    await input.close();
    const rejectsError = await rejects?.close();
    if (rejectsError !== undefined) outputErrors.push(rejectsError);
  }
  const result: ImportResult = {
    input: options.input,
    target,
    dryRun: options.dryRun,
    counts: tally.counts,
    failures: tally.failures,
    elapsedMs: ctx.now() - started,
    ...(tally.stoppedBy === undefined ? {} : { stoppedBy: tally.stoppedBy }),
    ...(interrupted === undefined ? {} : { interrupted }),
    ...(options.rejects === undefined ? {} : { rejects: options.rejects, rejectsWritten }),
    outputErrors,
  };
  if (report !== undefined) {
    report.write(`${stringifyJson(toJson(result), 2)}\n`);
    const reportError = await report.close();
    if (reportError !== undefined) outputErrors.push(reportError);
  }
  return result;
}

/** Batches go to the local store, each one lock and one durable append. */
async function importLocal(rows: AsyncIterable<Row[]>, settings: Settings, tally: ImportTally, importSettings: ImportSettings, ctx: Context): Promise<void> {
  const { store } = await openLocalStore(settings, ctx);
  try {
    await importIntoStore(rows, store, tally, importSettings);
  } finally {
    await store.close();
  }
}

/** A dry run's store: importIntoStore never writes under --dry-run. */
const NOTHING: Pick<PlantStore, 'addAll'> = {
  addAll: () => Promise.reject(new Error('a dry run writes nothing')),
};

async function importRemote(rows: AsyncIterable<Row[]>, options: ImportOptions, settings: Settings, tally: ImportTally, importSettings: ImportSettings, ctx: Context): Promise<void> {
  const { client } = await serviceClient(settings, ctx, { connections: options.concurrency, retry: IMPORT_RETRY });
  try {
    await importThroughService(rows, client, tally, importSettings, options.concurrency);
  } finally {
    await client.close();
  }
}
