import { EventEmitter } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../src/cli/answer-prompt.js';

/** What a terminal gives readAnswer: its input, where the question goes, and the SIGINTs it sends. */
function terminal(onQuestion: (signals: EventEmitter, input: PassThrough) => void = () => {}) {
  const input = new PassThrough();
  const signals = new EventEmitter();
  let asked = false;
  const output = new Writable({
    write(_chunk, _encoding, done) {
      if (!asked) onQuestion(signals, input);
      asked = true;
      done();
    },
  });
  const onInterrupt = (cancel: () => void) => {
    signals.once('SIGINT', cancel);
    return () => signals.off('SIGINT', cancel);
  };
  const answer = readAnswer(input as unknown as NodeJS.ReadStream, output, 'Delete them? [y/N] ', onInterrupt);
  return { input, signals, answer };
}

describe('readAnswer: one line from a terminal', () => {
  it('resolves to the line typed', async () => {
    const t = terminal();
    t.input.write('yes\n');
    expect(await t.answer).toBe('yes');
    expect(t.signals.listenerCount('SIGINT')).toBe(0);
  });

  it('takes a Ctrl-C typed the instant the question shows as no answer: it listens before it asks', async () => {
    // Where nothing listened yet, the SIGINT of a real process would kill it: exit 130, no "cancelled".
    let listening: number | undefined;
    const t = terminal((signals, input) => {
      listening = signals.listenerCount('SIGINT');
      // Nothing to cancel the question: end the input, so that the test ends too.
      if (listening === 0) input.end();
      else signals.emit('SIGINT');
    });
    expect(await t.answer).toBeUndefined();
    expect(listening).toBe(1);
  });
});
