import { printable, printableMessage, thousands } from '../../core/printable.js';
import type { RowFailure } from '../../import/outcomes.js';
import type { IOStreams } from '../context.js';
import { exitCodeFor, exitCodeForSignal } from '../exit-codes.js';
import type { BulkResult } from './types.js';
import { writeJsonDocument } from '../json-output.js';

/** How many failures the human summary lists; --json and --report list them all. */
const SHOWN_FAILURES = 20;

const count = thousands;

/** The account at the end, on stderr: what was done (created, deleted), skipped, failed, and what was not sent. */
export function renderHuman(result: BulkResult, io: IOStreams): void {
  const style = io.stderrStyle;
  const { counts } = result;
  const seconds = result.elapsedMs / 1000;
  const lines: string[] = [];
  const { unit } = result.summary;
  const rows = (n: number) => `${count(n)} ${unit}${n === 1 ? '' : 's'}`;
  const skipped = counts.skipped > 0 ? [`${count(counts.skipped)} skipped`] : [];
  const parts =
    result.dryRun && !result.updates
      ? [`${count(counts.valid)} valid`, ...skipped, `${count(counts.failed)} invalid`]
      : outcomeParts(result);
  if (counts.unknown > 0)
    parts.push(`${count(counts.unknown)} unknown (sent, no answer: may or may not be ${result.done})`);
  if (counts.notSent > 0) parts.push(`${count(counts.notSent)} not sent`);
  // The rows taken up: every row read but those left unsent (work stopped: a refused token, the
  // service gone, a second signal). The rate is theirs: rows read and never sent were read fast.
  const taken = counts.read - counts.notSent;
  const rate = taken > 0 ? ` (${count(Math.round(taken / Math.max(seconds, 0.001)))} ${unit}s/s)` : '';
  const lead = leadingWords(result, taken, rows, (text) => style.bold(text));
  lines.push(`${lead} in ${seconds.toFixed(1)}s${rate}: ${parts.join(', ')}`);
  for (const failure of result.failures.slice(0, SHOWN_FAILURES)) lines.push(`  ${describe(failure)}`);
  if (result.failures.length > SHOWN_FAILURES) {
    lines.push(
      style.dim(`  … and ${count(result.failures.length - SHOWN_FAILURES)} more: see --report FILE or --json`),
    );
  }
  const rejected = result.rejectsWritten ?? 0;
  if (result.rejects !== undefined && rejected > 0) {
    const rejects = printable(result.rejects, Infinity);
    const retry = result.done === 'created' ? `plants import ${rejects}` : `plants delete --from ${rejects}`;
    lines.push(
      `${rows(rejected)} not ${result.done} ${rejected === 1 ? 'was' : 'were'} written to ${rejects}: ` +
        `${nextStep(result, retry, rejected)}`,
    );
  }
  for (const problem of result.outputErrors)
    lines.push(`${style.red('error:')} ${printableMessage(problem, Infinity)}`);
  if (result.interrupted !== undefined) {
    lines.push(
      `${style.yellow('interrupted:')} ${result.interrupted}: the input was read no further than the ` +
        `${rows(counts.read)} above`,
    );
    if (!result.dryRun) lines.push(style.dim(`hint: ${result.summary.rest}`));
  }
  if (result.stoppedBy !== undefined) {
    lines.push(`${style.red('error:')} stopped: ${printableMessage(result.stoppedBy.message, Infinity)}`);
    if (result.stoppedBy.hint !== undefined)
      lines.push(style.dim(`hint: ${printableMessage(result.stoppedBy.hint, Infinity)}`));
  }
  io.stderr.write(`${lines.join('\n')}\n`);
}

/**
 * The summary's first words: `Imported 3 rows into …`. Where rows were left unsent (a refused
 * token, the service gone, a second signal), how many of those read were taken up: `Sent 2 of 10
 * rows to …`, `Wrote none of 10 rows to …`. Where none taken up was done (each failed or skipped),
 * the kind's words for that (`Imported none of 3 rows`), which `Imported 3 rows` would hide; a row
 * sent and not answered may have been done.
 */
function leadingWords(
  result: BulkResult,
  taken: number,
  rows: (n: number) => string,
  bold: (text: string) => string,
): string {
  const { counts, summary } = result;
  const input = result.input === '-' ? 'standard input' : result.input;
  // Read from the input it names: `Read 3 ids from ids.txt to delete from …`.
  const source = summary.namesInput === true ? ` from ${printable(input, Infinity)}` : '';
  const target = printable(result.target, Infinity);
  const ofRead = counts.notSent > 0 ? `${taken === 0 ? 'none' : count(taken)} of ` : '';
  const read = `${rows(counts.read)}${source}`;
  // A dry run changes nothing: it checks rows "for" the store or service.
  if (result.dryRun) return `${bold('Checked')} ${ofRead}${read} for ${target}`;
  const noneDone = counts.done + counts.updated + counts.unchanged + counts.unknown === 0;
  if (taken > 0 && noneDone && summary.noneDone !== undefined)
    return `${bold(summary.noneDone)} ${read} ${summary.preposition} ${target}`;
  const sent = /^https?:\/\//.test(result.target) ? 'Sent' : 'Wrote';
  if (ofRead !== '') return `${bold(sent)} ${ofRead}${read} to ${target}`;
  return `${bold(summary.verb)} ${read} ${summary.preposition} ${target}`;
}

/**
 * What to do with the rows written to --rejects: a row not sent, or sent with no answer, is sent
 * again as it is; a row that failed (invalid, or refused) fails again until it is fixed.
 */
function nextStep(result: BulkResult, retry: string, rejected: number): string {
  const failed = Math.min(result.counts.failed, rejected);
  if (failed === 0) return `${retry} retries ${rejected === 1 ? 'it' : 'them'}`;
  if (failed === rejected) return `fix ${rejected === 1 ? 'it' : 'them'}, then ${retry}`;
  return `fix the ${count(failed)} that failed, then ${retry} (it retries the others as they are)`;
}

/**
 * What came of the rows: created (deleted), skipped, failed, as --json counts them; for a delete,
 * how many of those skipped or failed were not there (--on-missing says which they are).
 */
function outcomeParts(result: BulkResult): string[] {
  const { counts } = result;
  if (result.updates && result.dryRun)
    return [
      `${count(counts.done)} to create`,
      `${count(counts.updated)} to update`,
      `${count(counts.unchanged)} unchanged`,
      `${count(counts.failed)} invalid`,
    ];
  if (result.updates)
    return [
      `${count(counts.done)} created`,
      `${count(counts.updated)} updated`,
      `${count(counts.unchanged)} unchanged`,
      `${count(counts.failed)} failed`,
    ];
  if (result.done === 'created')
    return [`${count(counts.done)} created`, `${count(counts.skipped)} skipped`, `${count(counts.failed)} failed`];
  const notFound = result.failures.filter((failure) => failure.code === 'not_found').length;
  const skipped = `${count(counts.skipped)} skipped${counts.skipped > 0 ? ' (not there)' : ''}`;
  const failed = `${count(counts.failed)} failed${notFound > 0 ? ` (${count(notFound)} not found)` : ''}`;
  return [`${count(counts.done)} deleted`, skipped, failed];
}

function describe(failure: RowFailure): string {
  const where = failure.line !== undefined ? `line ${failure.line}` : `[${failure.index}]`;
  const id = failure.id === undefined ? '' : ` (id ${failure.id})`;
  const detail =
    failure.issues !== undefined && failure.issues.length > 0
      ? failure.issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')
      : failure.message;
  return `${where}${id}: ${printableMessage(detail, 160)}`;
}

/**
 * The --json document, and the --report file: the result, its rows done counted as `created` or
 * `deleted`, its stop as an Error with its code.
 */
export function toJson(result: BulkResult): unknown {
  const { input, target, dryRun, stoppedBy, done, updates, counts, failures, ...rest } = result;
  const { read, done: doneCount, updated, unchanged, ...others } = counts;
  delete (rest as Partial<BulkResult>).summary;
  // updated and unchanged are counts of an import that updates (--on-conflict update) only.
  if (updates) Object.assign(others, { updated, unchanged });
  return {
    input,
    target,
    dryRun,
    counts: { read, [done]: doneCount, ...others },
    failures,
    ...rest,
    ...(stoppedBy === undefined
      ? {}
      : { stoppedBy: { error: stoppedBy.error, code: stoppedBy.code, message: stoppedBy.message } }),
  };
}

/**
 * 0: every row created or skipped; 1: some failed; 3/4: stopped by authentication or the store; 129/130/143: a signal.
 */
export function exitCode(result: BulkResult): number {
  if (result.stoppedBy !== undefined) return exitCodeFor(result.stoppedBy.code);
  if (result.interrupted !== undefined) return exitCodeForSignal(result.interrupted);
  const incomplete = result.counts.failed + result.counts.unknown + result.counts.notSent + result.outputErrors.length;
  return incomplete > 0 ? 1 : 0;
}

export function renderJson(result: BulkResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
