import type { IOStreams } from '../../context.js';
import type { StopSignal } from '../../exit-codes.js';
import { writeJsonDocument } from '../../json-output.js';

export interface ServeResult {
  stoppedBy: StopSignal;
}

export function renderHuman(): void {}

function toJson(result: ServeResult): unknown {
  return result;
}

export function renderJson(result: ServeResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
