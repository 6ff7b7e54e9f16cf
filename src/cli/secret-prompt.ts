import { PlantsError } from '../core/errors.js';

/** Longer than any token we take: typing or pasting past it is an error, not unbounded memory. */
const MAX_CHARACTERS = 4096;

/**
 * Asks `prompt` on `output` and reads one line from the terminal `input` without showing it, as
 * `sudo` and `gh auth login` do: raw mode, so nothing is echoed; Enter ends the line; Backspace
 * and Ctrl-U edit it; Ctrl-D on an empty line gives up with an empty answer; Ctrl-C is
 * `interrupt()` (the terminal sends no SIGINT in raw mode).
 */
export function readSecretLine(
  input: NodeJS.ReadStream,
  output: NodeJS.WritableStream,
  prompt: string,
  interrupt: () => void,
): Promise<string> {
  // Echo off before the prompt shows: keys typed as soon as it appears are never echoed.
  input.setRawMode(true);
  output.write(prompt);
  input.setEncoding('utf8');
  input.resume();
  return new Promise((resolve, reject) => {
    let line = '';
    const finish = (error?: PlantsError) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
      if (error === undefined) resolve(line);
      else reject(error);
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n') return finish();
        if (character === '\u0003') {
          finish();
          return interrupt();
        }
        if (character === '\u0004') {
          if (line === '') return finish();
        } else if (character === '\u007f' || character === '\b') line = [...line].slice(0, -1).join('');
        else if (character === '\u0015') line = '';
        else if (character >= ' ') line += character;
        if (line.length > MAX_CHARACTERS)
          return finish(new PlantsError('usage', `the token is longer than ${MAX_CHARACTERS} characters`));
      }
      return undefined;
    };
    input.on('data', onData);
  });
}
