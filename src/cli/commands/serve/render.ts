import type { ServeResult } from './types.js';

export function renderHuman(): void {}

export function toJson(result: ServeResult): unknown {
  return result;
}
