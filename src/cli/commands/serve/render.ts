import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';

export interface ServeResult {
  stoppedBy: string;
}

export function renderHuman(): void {}

function toJson(result: ServeResult): unknown {
  return result;
}

export function renderJson(result: ServeResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
