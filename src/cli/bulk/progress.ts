import { thousands } from '../../core/printable.js';
import type { Counts } from '../../import/outcomes.js';
import type { Consumed } from '../../import/records.js';
import type { IOStreams } from '../context.js';

/** What the progress line shows at one moment. */
export interface ProgressFigures {
  /** Rows whose work is over, whatever came of it. */
  finished: number;
  /** Rows finished a second, over the whole run. */
  rate: number;
  /** How much of the work is done, from 0 to 1: only for an input of known size. */
  fraction?: number;
  /** Seconds left at the rate so far, once there is a rate to go by. */
  etaSeconds?: number;
}

/**
 * The figures of the progress line. The fraction is the rows finished, each weighed at the
 * average size of the rows handed out so far, against the input's size: so it follows the work
 * done, not the reading, which runs ahead of it (a stream's read-ahead, rows queued for the
 * service); it is 1 only once every row is finished. Never NaN or infinite.
 */
export function progressFigures(
  counts: Counts,
  consumed: Consumed,
  totalBytes: number | undefined,
  elapsedMs: number,
): ProgressFigures {
  const finished =
    counts.done +
    counts.updated +
    counts.unchanged +
    counts.skipped +
    counts.valid +
    counts.failed +
    counts.unknown +
    counts.notSent;
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? finished / seconds : 0;
  if (totalBytes === undefined || totalBytes <= 0) return { finished, rate };
  const bytesPerRecord = consumed.records > 0 ? consumed.bytes / consumed.records : 0;
  const fraction = Math.min(1, (Math.min(finished, consumed.records) * bytesPerRecord) / totalBytes);
  // An ETA from the first second on, and the first percent: before, it would be a guess.
  if (seconds < 1 || fraction < 0.01) return { finished, rate, fraction };
  return { finished, rate, fraction, etaSeconds: (seconds * (1 - fraction)) / fraction };
}

/** 45s, 3m05s, 1h02m. */
export function duration(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole}s`;
  if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
  return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * A progress line on stderr while bulk work runs, on a TTY only: rows finished, rate, failures
 * and, for a file, how much is done with an ETA. Redrawn at most 10 times a second. cli-progress
 * is loaded only here, so scripts (no TTY) never pay for it; it draws, the figures are ours.
 */
export interface Progress {
  stop(): void;
  /** Writes a line of its own on stderr: above the progress line, which is drawn again under it. */
  say(line: string): void;
}

export async function startProgress(
  io: IOStreams,
  counts: Counts,
  consumed: Consumed,
  totalBytes: number | undefined,
  now: () => number,
): Promise<Progress> {
  const terminal = io.stderrTerminal;
  if (terminal === undefined) return { stop: () => undefined, say: (line) => void io.stderr.write(`${line}\n`) };
  const { default: progress } = await import('cli-progress');
  const knownSize = totalBytes !== undefined && totalBytes > 0;
  // Payload names that are not cli-progress's own tokens ({eta}, {percentage}): those it fills itself.
  const bar = new progress.SingleBar({
    stream: terminal,
    fps: 10,
    hideCursor: true,
    clearOnComplete: true,
    format: knownSize
      ? '{bar} {percent}% | {rows} rows | {rate}/s | {failed} failed | ETA {left}'
      : '{rows} rows | {rate}/s | {failed} failed',
  });
  const started = now();
  const PARTS = 1000;
  const update = (draw: (parts: number, payload: object) => void) => {
    const figures = progressFigures(counts, consumed, totalBytes, now() - started);
    const parts = Math.floor((figures.fraction ?? 0) * PARTS);
    draw(parts, {
      percent: Math.floor((figures.fraction ?? 0) * 100),
      rows: thousands(figures.finished),
      rate: thousands(figures.rate),
      failed: thousands(counts.failed + counts.unknown),
      left: figures.etaSeconds === undefined ? '…' : duration(figures.etaSeconds),
    });
  };
  update((parts, payload) => bar.start(PARTS, parts, payload));
  const timer = setInterval(() => update((parts, payload) => bar.update(parts, payload)), 100);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      bar.stop();
    },
    say: (line) => {
      terminal.clearLine(0);
      terminal.cursorTo(0);
      terminal.write(`${line}\n`);
    },
  };
}
