/** Longer than any answer to a question of ours: a line past it is no answer, not unbounded memory. */
const MAX_CHARACTERS = 1024;

/**
 * Asks `question` on `output` and reads one line from the terminal `input` as it is: echoed and
 * edited by the terminal (its cooked mode, unlike a secret's raw one). Resolves to the line, or
 * to undefined where input ends first (Ctrl-D) or on Ctrl-C: the terminal sends SIGINT, which
 * `onInterrupt` hands to `cancel` while the question waits (and which then kills nothing).
 */
export function readAnswer(
  input: NodeJS.ReadStream,
  output: NodeJS.WritableStream,
  question: string,
  onInterrupt: (cancel: () => void) => () => void,
): Promise<string | undefined> {
  input.setEncoding('utf8');
  return new Promise((resolve) => {
    let line = '';
    const finish = (answer: string | undefined) => {
      stopListening();
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      resolve(answer);
    };
    const onData = (chunk: string) => {
      line += chunk;
      const end = line.indexOf('\n');
      if (end !== -1) finish(line.slice(0, end));
      else if (line.length > MAX_CHARACTERS) finish(undefined);
    };
    // The line the question was on is ended, so that what comes next starts a line of its own.
    const onEnd = () => {
      output.write('\n');
      finish(undefined);
    };
    // Listening before the question shows: a Ctrl-C typed the instant it does would otherwise kill the process.
    const stopListening = onInterrupt(onEnd);
    output.write(question);
    input.on('data', onData);
    input.once('end', onEnd);
    input.resume();
  });
}
