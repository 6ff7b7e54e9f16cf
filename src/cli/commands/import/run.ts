import { exitCode, renderHuman, renderJson } from '../../bulk/render.js';
import type { BulkResult } from '../../bulk/types.js';
import type { CommandImplementation } from '../../command-implementation.js';
import { importRows, type ImportOptions } from './import-rows.js';

export const implementation = {
  run: importRows,
  renderHuman,
  renderJson,
  exitCode,
} satisfies CommandImplementation<ImportOptions, BulkResult>;
