import { thousands } from '../../core/printable.js';
import type { Counts } from '../../import/outcomes.js';
import type { IOStreams } from '../context.js';

/**
 * A progress line on stderr while bulk work runs, on a TTY only: rows done, rate, failures and,
 * for a file, how far through it we are with an ETA. Redrawn at most 10 times a second.
 * cli-progress is loaded only here, so scripts (no TTY) never pay for it.
 */
export async function startProgress(io: IOStreams, counts: Counts, totalBytes: number | undefined, bytesRead: () => number): Promise<{ stop(): void }> {
  const terminal = io.stderrTerminal;
  if (terminal === undefined) return { stop: () => undefined };
  const { default: progress } = await import('cli-progress');
  const knownSize = totalBytes !== undefined && totalBytes > 0;
  const bar = new progress.SingleBar({
    stream: terminal,
    fps: 10,
    hideCursor: true,
    clearOnComplete: true,
    etaBuffer: 20,
    format: knownSize
      ? '{bar} {percentage}% | {rows} rows | {rate}/s | {failed} failed | ETA {eta_formatted}'
      : '{rows} rows | {rate}/s | {failed} failed',
  });
  const started = Date.now();
  const payload = () => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    const rows = counts.read;
    return { rows: thousands(rows), rate: thousands(rows / seconds), failed: thousands(counts.failed + counts.unknown) };
  };
  bar.start(knownSize ? totalBytes : 1, 0, payload());
  const timer = setInterval(() => bar.update(knownSize ? bytesRead() : 0, payload()), 100);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      bar.stop();
    },
  };
}
