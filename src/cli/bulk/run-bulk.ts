import { setMaxListeners } from 'node:events';
import { IMPORT_RETRY } from '../../client/retry.js';
import { PlantsError } from '../../core/errors.js';
import { stringifyJson } from '../../core/json.js';
import { BulkTally, inInputOrder } from '../../import/outcomes.js';
import type { InvalidRow, Row } from '../../import/row.js';
import { untilStopped } from '../../import/rows.js';
import { applyThroughService } from '../../import/service-workers.js';
import { applyInBatches } from '../../import/store-batches.js';
import { walPathOf } from '../../store/file/store-paths.js';
import type { Context } from '../context.js';
import type { StopSignal } from '../exit-codes.js';
import { openLocalStore, serviceClient, targetSettings } from '../target.js';
import { openInput, openOutput, refuseClobbering, type OutputFile } from './files.js';
import { inputName, inputRows } from './input-rows.js';
import { rejectsForm, type Rejected } from './rejects.js';
import { startProgress, type Progress } from './progress.js';
import { toJson } from './render.js';
import type { BulkKind, BulkOptions, BulkResult } from './types.js';

/**
 * Bulk work from a file (`plants import`, `plants delete --from`): every row read, checked, and
 * its work done in the store (in batches) or through the service (many requests in flight); an
 * account of every row at the end, rows not done to --rejects, the account to --report.
 */
export async function runBulk<T, Format extends string>(
  kind: BulkKind<T, Format>,
  options: BulkOptions<Format>,
  ctx: Context,
): Promise<BulkResult> {
  const settings = await targetSettings(options.target, ctx);
  const target = options.target.local ? settings.require('store') : settings.require('base-url');
  await refuseClobbering(
    [
      ...(options.rejects === undefined ? [] : [{ flag: '--rejects', path: options.rejects }]),
      ...(options.report === undefined ? [] : [{ flag: '--report', path: options.report }]),
    ],
    [
      options.input === '-'
        ? { what: 'standard input', identity: ctx.io.stdinFile() }
        : { what: 'the input', path: options.input },
      ...(options.target.local
        ? [
            { what: 'the store', path: target },
            { what: "the store's journal", path: walPathOf(target) },
          ]
        : []),
    ],
    ctx.fs,
  );
  const input = await openInput(options.input, ctx.io, ctx.fs);
  // Opened in the try below, so that one that cannot be opened closes those opened before it.
  let rejects: OutputFile | undefined;
  let report: OutputFile | undefined;
  let progress: Progress | undefined;
  let rejectsWritten = 0;
  const rejectsAs = options.rejects === undefined ? undefined : rejectsForm(kind.rejectsFormat(options.rejects));
  const writeReject = (row: Row<T>) => {
    const rejected = row.error === undefined ? kind.rejected(row) : asRead(row);
    if (rejected === undefined || rejects === undefined || rejectsAs === undefined) return;
    rejects.write(rejectsAs.row(rejected));
    rejectsWritten += 1;
  };
  const tally = new BulkTally<T>(options.rejects === undefined ? {} : { onReject: writeReject });
  const started = ctx.now();
  const outputErrors: string[] = [];
  // A first Ctrl-C (or SIGTERM) stops reading, lets the rows read so far be done or counted, and
  // ends with the summary, the lock released. A second one stops at once: no lock is waited for,
  // no write begun and no request sent any more, those in flight abandoned (only a write under
  // way is finished: one cut short would leave a torn tail); the summary and the lock as after the
  // first. A third kills the process.
  let interrupted: StopSignal | undefined;
  const abandon = new AbortController();
  // The client listens for it (its transport, and the requests waiting for a connection: two), and
  // each wait to send a request again: at most --concurrency at once and two more, which may be
  // above Node's threshold of 10 for a leak warning.
  setMaxListeners(Math.max(10, options.concurrency + 2), abandon.signal);
  let stopListening: () => void = () => undefined;
  const stop = new Promise<void>((stopped) => {
    stopListening = ctx.onStopSignal(
      (signal) => {
        interrupted = signal;
        progress?.stop();
        progress = undefined;
        ctx.io.stderr.write(`plants: ${signal}: finishing the rows read so far (again to stop at once)\n`);
        stopped();
      },
      (signal) => {
        const inFlight = options.target.local ? 'a write under way is finished' : 'requests in flight are abandoned';
        ctx.io.stderr.write(`plants: ${signal} again: stopping at once, ${inFlight} (a third time kills it)\n`);
        abandon.abort();
      },
    );
  });
  try {
    if (options.rejects !== undefined) {
      rejects = await openOutput('--rejects', options.rejects, ctx.fs);
      rejects.write(rejectsAs?.head ?? '');
    }
    if (options.report !== undefined) report = await openOutput('--report', options.report, ctx.fs);
    const consumed = { bytes: 0, records: 0 };
    const read = await inputRows(kind, options, input.chunks, consumed);
    progress = await startProgress(ctx.io, tally.counts, consumed, input.size, ctx.now);
    const rows = untilStopped(pacedBy(read, rejects), stop);
    const bulkSettings = { onNoop: options.onNoop, failFast: options.failFast, dryRun: options.dryRun };
    // A process with fewer descriptors than --concurrency asks for goes on with the connections it
    // could open: every request it could not send waits for one of them (http-client.ts).
    const tell = (line: string) =>
      progress === undefined ? void ctx.io.stderr.write(`${line}\n`) : progress.say(line);
    const onFewerConnections = (connections: number) =>
      tell(
        `plants: too many open files (ulimit -n): going on with ${connections} connections, not ` +
          `${options.concurrency}; lower --concurrency or raise ulimit -n`,
      );
    const clientOptions = {
      connections: options.concurrency,
      retry: IMPORT_RETRY,
      stop: abandon.signal,
      onFewerConnections,
    };
    // A dry run checks rows and does nothing: no store is opened, no token needed.
    if (options.dryRun) {
      // All that can be checked without writing: the store is one (read, not changed), a token
      // exists, and what each row's work would come to, its repeats in the input included.
      const checking = { ...bulkSettings, dryRun: false };
      if (options.target.local) {
        const { store } = await openLocalStore(settings, ctx, { makes: kind.done === 'created', stop: abandon.signal });
        try {
          await applyInBatches(
            rows,
            kind.check.onStore(store),
            (row) => kind.onStore(store).noopError(row),
            tally,
            checking,
          );
        } finally {
          await store.close();
        }
      } else {
        const { client } = await serviceClient(settings, ctx, clientOptions);
        try {
          await applyThroughService(rows, kind.check.onService(client), tally, checking, options.concurrency);
        } finally {
          await client.close();
        }
      }
    } else if (options.target.local) {
      // An import makes the store where there is none; a delete needs one to be there.
      const { store } = await openLocalStore(settings, ctx, { makes: kind.done === 'created', stop: abandon.signal });
      try {
        const { work, noopError } = kind.onStore(store);
        await applyInBatches(rows, work, noopError, tally, bulkSettings);
      } finally {
        await store.close();
      }
    } else {
      const { client } = await serviceClient(settings, ctx, clientOptions);
      try {
        await applyThroughService(rows, kind.onService(client), tally, bulkSettings, options.concurrency);
      } finally {
        await client.close();
      }
    }
  } catch (caught) {
    // Stopped at a second signal as the store was opened (its read waited for the lock): before
    // any row was taken, as the account says, which is all there is to say.
    const stoppedOpening = caught instanceof PlantsError && caught.code === 'interrupted' && abandon.signal.aborted;
    if (!stoppedOpening && !(caught instanceof PlantsError && caught.code === 'unreadable_input')) throw caught;
    if (!stoppedOpening) {
      const error = new PlantsError('unreadable_input', `${inputName(options.input)}: ${caught.message}`);
      // Input that turns unreadable part way (a CSV quote never closed): stop, and still give the
      // account of the rows already done.
      if (tally.counts.read === 0) throw error;
      tally.stop(error);
    }
  } finally {
    stopListening();
    progress?.stop();
    await input.close();
    rejects?.write(rejectsAs?.tail() ?? '');
    const rejectsError = await rejects?.close();
    if (rejectsError !== undefined) outputErrors.push(rejectsError);
  }
  const result: BulkResult = {
    input: options.input,
    target,
    dryRun: options.dryRun,
    done: kind.done,
    updates: kind.updates === true,
    summary: kind.summary,
    counts: tally.counts,
    failures: inInputOrder(tally.failures),
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
 * The runs of rows, each handed out once --rejects has taken the rows rejected before it: a
 * million rows not done, into a file slower than the work, are held up, not held in memory.
 */
async function* pacedBy<T>(runs: AsyncIterable<T>, rejects: OutputFile | undefined): AsyncIterable<T> {
  for await (const run of runs) {
    await rejects?.caughtUp();
    yield run;
  }
}

/** An invalid row as it was read: a JSON value, or text that was never JSON; nothing for a row over the size limit. */
function asRead(row: InvalidRow): Rejected | undefined {
  if (row.text !== undefined) return { text: row.text };
  return row.raw === undefined ? undefined : { value: row.raw, json: stringifyJson(row.raw) };
}
