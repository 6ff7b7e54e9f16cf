import type { Readable } from 'node:stream';
import { PlantsError } from '../core/errors.js';

/** More than any token: a stream with no line break within it is not a token. */
const MAX_BYTES = 8192;

/**
 * The first line of a stream (a token piped in), without its line break or surrounding spaces.
 * Reads no further than the first line break, and at most MAX_BYTES: `plants login --with-token
 * < /dev/zero` is an error, not a process that fills memory.
 */
export async function readFirstLine(stream: Readable, what: string): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
    const end = text.search(/\r?\n/);
    if (end !== -1) return text.slice(0, end).trim();
    if (text.length > MAX_BYTES)
      throw new PlantsError('usage', `the first line of ${what} is longer than ${MAX_BYTES} bytes: not a token`);
  }
  return text.trim();
}
