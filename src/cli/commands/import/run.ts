import { IMPORT_RETRY } from '../../../client/retry.js';
import { PlantsError } from '../../../core/errors.js';
import { stringifyJson } from '../../../core/json.js';
import { formatFromName } from '../../../import/formats.js';
import { importIntoStore } from '../../../import/local-import.js';
import { ImportTally, type Counts, type RowFailure } from '../../../import/outcomes.js';
import { importThroughService } from '../../../import/remote-import.js';
import { readRows, untilStopped, type Row } from '../../../import/rows.js';
import type { ImportSettings } from '../../../import/settings.js';
import type { PlantStore } from '../../../core/store.js';
import type { FileStore } from '../../../store/file-store.js';
import { journalPathOf } from '../../../store/journal.js';
import { Settings } from '../../config/resolve.js';
import { serviceClient } from '../../service-client.js';
import type { Context } from '../../context.js';
import { exitCodeFor, exitCodeForSignal } from '../../exit-codes.js';
import type { CommandModule } from '../types.js';
import type { ImportOptions } from './command.js';
import { openInput, openOutput, refuseClobbering, rejectLine, type OutputFile } from './files.js';
import { startProgress } from './progress.js';
import { renderSummary } from './summary.js';

export interface ImportResult {
  input: string;
  target: string;
  dryRun: boolean;
  counts: Counts;
  failures: RowFailure[];
  stoppedBy?: PlantsError;
  /** SIGINT or SIGTERM: the import stopped reading there; every row it read is in the counts. */
  interrupted?: string;
  elapsedMs: number;
  rejects?: string;
  /** Rows written to --rejects: every row not created, but those over the size limit. */
  rejectsWritten?: number;
  /** The --rejects or --report file could not be written in full. */
  outputErrors: string[];
}

async function run(options: ImportOptions, ctx: Context): Promise<ImportResult> {
  const format = options.format ?? formatFromName(options.input);
  if (format === undefined) {
    throw new PlantsError('usage', `cannot tell the format of ${options.input === '-' ? 'standard input' : options.input}: give --format ndjson, csv or json`);
  }
  const settings = await Settings.load(ctx, { store: options.store, 'base-url': options.baseUrl, token: options.token, timeout: options.timeout });
  const target = options.local ? settings.require('store') : settings.require('base-url');
  await refuseClobbering(
    [
      ...(options.rejects === undefined ? [] : [{ flag: '--rejects', path: options.rejects }]),
      ...(options.report === undefined ? [] : [{ flag: '--report', path: options.report }]),
    ],
    [
      options.input === '-' ? { what: 'standard input', identity: ctx.io.stdinFile() } : { what: 'the input', path: options.input },
      ...(options.local ? [{ what: 'the store', path: target }, { what: "the store's journal", path: journalPathOf(target) }] : []),
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
    else if (options.local) await importLocal(rows, await ctx.openStore(target, { journal: true }), tally, importSettings);
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

/**
 * Batches go to the store's journal; at the end the store file is made whole again: also when
 * the input turned unreadable part way or the import was interrupted, but not after the store
 * itself failed (the journal keeps what was stored, and the next write folds it).
 */
async function importLocal(rows: AsyncIterable<Row[]>, store: FileStore, tally: ImportTally, importSettings: ImportSettings): Promise<void> {
  try {
    let inputFailure: { error: unknown } | undefined;
    try {
      await importIntoStore(rows, store, tally, importSettings);
    } catch (error) {
      inputFailure = { error };
    }
    if (!isStoreFailure(tally.stoppedBy)) await store.compact();
    if (inputFailure !== undefined) throw inputFailure.error;
  } finally {
    await store.close();
  }
}

function isStoreFailure(error: PlantsError | undefined): boolean {
  return error !== undefined && (error.code === 'store_io' || error.code === 'store_locked' || error.code === 'store_corrupt');
}

/** A dry run's store: importIntoStore never writes under --dry-run. */
const NOTHING: PlantStore = {
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

function toJson(result: ImportResult): unknown {
  const { stoppedBy, ...rest } = result;
  return {
    ...rest,
    ...(stoppedBy === undefined ? {} : { stoppedBy: { error: stoppedBy.error, code: stoppedBy.code, message: stoppedBy.message } }),
  };
}

/** 0: every row created or skipped; 1: some failed; 3/4: stopped by authentication or the store; 130/143: interrupted. */
function exitCode(result: ImportResult): number {
  if (result.stoppedBy !== undefined) return exitCodeFor(result.stoppedBy.code);
  if (result.interrupted !== undefined) return exitCodeForSignal(result.interrupted);
  const incomplete = result.counts.failed + result.counts.unknown + result.counts.notSent + result.outputErrors.length;
  return incomplete > 0 ? 1 : 0;
}

export const command: CommandModule<ImportOptions, ImportResult> = { run, renderHuman: renderSummary, toJson, exitCode };
