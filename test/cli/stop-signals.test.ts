import { afterEach, describe, expect, it } from 'vitest';
import { exitCodeForSignal } from '../../src/cli/exit-codes.js';
import { processContext } from '../../src/cli/process-context.js';

// The signals are emitted on this process's listeners, not sent: a real one left unheard would
// kill the test runner (which is what the old handling did with a signal delivered twice).
describe('stop signals, as plants import takes them', () => {
  let stopListening: (() => void) | undefined;
  afterEach(() => stopListening?.());

  it('counts a signal delivered twice at once (timeout(1): to the process, then its group) as one', async () => {
    const ctx = await processContext([]);
    const first: string[] = [];
    const again: string[] = [];
    stopListening = ctx.onStopSignal(
      (signal) => first.push(signal),
      (signal) => again.push(signal),
    );
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    expect({ first, again }).toEqual({ first: ['SIGINT'], again: [] });
  });

  it('hands a second signal, later, to `again`', async () => {
    const ctx = await processContext([]);
    const first: string[] = [];
    const again: string[] = [];
    stopListening = ctx.onStopSignal(
      (signal) => first.push(signal),
      (signal) => again.push(signal),
    );
    process.emit('SIGINT', 'SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 120));
    process.emit('SIGTERM', 'SIGTERM');
    expect({ first, again }).toEqual({ first: ['SIGINT'], again: ['SIGTERM'] });
  });

  it('takes a first SIGHUP (a terminal closed) as SIGTERM, and a SIGHUP after a first signal not at all', async () => {
    const ctx = await processContext([]);
    const first: string[] = [];
    const again: string[] = [];
    stopListening = ctx.onStopSignal(
      (signal) => first.push(signal),
      (signal) => again.push(signal),
    );
    process.emit('SIGHUP', 'SIGHUP');
    await new Promise((resolve) => setTimeout(resolve, 120));
    // The shell passes the hang-up on, and the kernel sends it again as the shell exits.
    process.emit('SIGHUP', 'SIGHUP');
    expect({ first, again }).toEqual({ first: ['SIGHUP'], again: [] });
    process.emit('SIGTERM', 'SIGTERM');
    expect({ first, again }).toEqual({ first: ['SIGHUP'], again: ['SIGTERM'] });
  });

  it('ends a command it stopped with 128 and the signal number, as a shell reports a process the signal killed', () => {
    expect([exitCodeForSignal('SIGHUP'), exitCodeForSignal('SIGINT'), exitCodeForSignal('SIGTERM')]).toEqual([
      129, 130, 143,
    ]);
  });
});
