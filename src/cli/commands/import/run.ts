import { createWriteStream, type WriteStream } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { IMPORT_RETRY } from '../../../client/retry.js';
import { PlantsError } from '../../../core/errors.js';
import { stringifyJson } from '../../../core/json.js';
import { formatFromName } from '../../../import/formats.js';
import { importIntoStore } from '../../../import/local-import.js';
import { ImportTally, type Counts, type RowFailure } from '../../../import/outcomes.js';
import { importThroughService } from '../../../import/remote-import.js';
import { readRows, type Row } from '../../../import/rows.js';
import type { ImportSettings } from '../../../import/settings.js';
import type { PlantStore } from '../../../core/store.js';
import type { FileStore } from '../../../store/file-store.js';
import { Settings } from '../../config/resolve.js';
import type { Context } from '../../context.js';
import { exitCodeFor } from '../../exit-codes.js';
import type { CommandModule } from '../types.js';
import type { ImportOptions } from './command.js';
import { startProgress } from './progress.js';
import { renderSummary } from './summary.js';

export interface ImportResult {
  input: string;
  target: string;
  dryRun: boolean;
  counts: Counts;
  failures: RowFailure[];
  stoppedBy?: PlantsError;
  elapsedMs: number;
  rejects?: string;
}

async function run(options: ImportOptions, ctx: Context): Promise<ImportResult> {
  const format = options.format ?? formatFromName(options.input);
  if (format === undefined) {
    throw new PlantsError('usage', `cannot tell the format of ${options.input === '-' ? 'standard input' : options.input}: give --format ndjson, csv or json`);
  }
  const settings = await Settings.load(ctx, { store: options.store, 'base-url': options.baseUrl, token: options.token, timeout: options.timeout });
  const input = await openInput(options.input, ctx);
  const rejects = options.rejects === undefined ? undefined : createWriteStream(options.rejects);
  const tally = new ImportTally(rejects === undefined ? {} : { onReject: (row) => void rejects.write(`${rejectLine(row)}\n`) });
  const progress = await startProgress(ctx.io, tally, input.size, input.bytesRead);
  const started = ctx.now();
  let target: string;
  try {
    const rows = readRows(input.stream, format);
    const importSettings = { onConflict: options.onConflict, failFast: options.failFast, dryRun: options.dryRun };
    if (options.local || options.dryRun) {
      // A dry run validates rows and sends nothing: no store is opened, no token needed.
      target = options.local ? settings.require('store') : settings.require('base-url');
      if (options.dryRun) await importIntoStore(rows, NOTHING, tally, importSettings);
      else await importLocal(rows, await ctx.openStore(target, { journal: true }), tally, importSettings);
    } else {
      target = settings.require('base-url');
      await importRemote(rows, options, settings, target, tally, importSettings, ctx);
    }
  } finally {
    progress.stop();
    if (rejects !== undefined) await closeStream(rejects);
    input.stream.destroy();
  }
  const result: ImportResult = {
    input: options.input,
    target,
    dryRun: options.dryRun,
    counts: tally.counts,
    failures: tally.failures,
    elapsedMs: ctx.now() - started,
    ...(tally.stoppedBy === undefined ? {} : { stoppedBy: tally.stoppedBy }),
    ...(options.rejects === undefined ? {} : { rejects: options.rejects }),
  };
  if (options.report !== undefined) await writeFile(options.report, `${stringifyJson(toJson(result), 2)}\n`);
  return result;
}

/** Batches go to the store's journal; at the end, the store file is made whole again. */
async function importLocal(rows: AsyncIterable<Row>, store: FileStore, tally: ImportTally, importSettings: ImportSettings): Promise<void> {
  await importIntoStore(rows, store, tally, importSettings);
  if (tally.stoppedBy === undefined) await store.compact();
}

/** A dry run's store: importIntoStore never writes under --dry-run. */
const NOTHING: PlantStore = {
  addAll: () => Promise.reject(new Error('a dry run writes nothing')),
};

async function importRemote(rows: AsyncIterable<Row>, options: ImportOptions, settings: Settings, baseUrl: string, tally: ImportTally, importSettings: ImportSettings, ctx: Context): Promise<void> {
  const token = settings.get('token').value;
  if (token === undefined) {
    throw new PlantsError('not_logged_in', 'no token to authenticate with the service', { hint: 'run plants login --with-token (or set PLANTS_TOKEN), or use --local' });
  }
  const client = await ctx.httpClient({
    baseUrl,
    token,
    timeoutSeconds: Number(settings.require('timeout')),
    env: ctx.env,
    userAgent: `plants/${ctx.version}`,
    connections: options.concurrency,
    retry: IMPORT_RETRY,
  });
  try {
    await importThroughService(rows, client, tally, importSettings, options.concurrency);
  } finally {
    await client.close();
  }
}

interface Input {
  stream: Readable;
  /** Bytes in all, when known (a file): the progress line's 100%. */
  size: number | undefined;
  bytesRead(): number;
}

async function openInput(path: string, ctx: Context): Promise<Input> {
  if (path === '-') return { stream: ctx.io.stdin, size: undefined, bytesRead: () => 0 };
  try {
    const handle = await open(path, 'r');
    const info = await handle.stat();
    if (info.isDirectory()) {
      await handle.close();
      throw new PlantsError('unreadable_input', `${path} is a directory, not a file of plants`);
    }
    const stream = handle.createReadStream({ highWaterMark: 256 * 1024 });
    return { stream, size: info.size, bytesRead: () => stream.bytesRead };
  } catch (error) {
    if (error instanceof PlantsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new PlantsError('unreadable_input', code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path} (${code})`);
  }
}

/** A row not created, re-importable as it is: the plant, or the row as it was read. */
function rejectLine(row: Row): string {
  if (row.error === undefined) return stringifyJson(row.plant);
  return typeof row.raw === 'string' ? row.raw : stringifyJson(row.raw);
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function toJson(result: ImportResult): unknown {
  const { stoppedBy, ...rest } = result;
  return {
    ...rest,
    ...(stoppedBy === undefined ? {} : { stoppedBy: { error: stoppedBy.error, code: stoppedBy.code, message: stoppedBy.message } }),
  };
}

/** 0: every row created or skipped; 1: some failed; 3/4: stopped by authentication or the store. */
function exitCode(result: ImportResult): number {
  if (result.stoppedBy !== undefined) return exitCodeFor(result.stoppedBy.code);
  return result.counts.failed + result.counts.unknown + result.counts.notSent > 0 ? 1 : 0;
}

export const command: CommandModule<ImportOptions, ImportResult> = { run, renderHuman: renderSummary, toJson, exitCode };
