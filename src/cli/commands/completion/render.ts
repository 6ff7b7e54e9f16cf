import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';
import type { CompletionResult } from './types.js';

/** The script itself, on stdout, for `source <(…)` or a file. */
export function renderHuman(result: CompletionResult, io: IOStreams): void {
  io.stdout.write(result.script);
}

export function renderJson(result: CompletionResult, io: IOStreams): void {
  writeJsonDocument(io, result);
}
