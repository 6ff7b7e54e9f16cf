import { stringifyJson } from '../core/json.js';
import type { IOStreams } from './context.js';

/** Writes a value as the one JSON document on stdout, ids exact (the lossless writer: ids are bigints). */
export function writeJsonDocument(io: IOStreams, value: unknown): void {
  io.stdout.write(`${stringifyJson(value, 2)}\n`);
}
