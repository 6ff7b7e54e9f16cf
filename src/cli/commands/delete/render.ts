import { printable } from '../../../core/printable.js';
import * as bulk from '../../bulk/render.js';
import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';
import type { BulkResult } from '../../bulk/types.js';

export type DeleteResult = { many: false; id: bigint; where: string } | { many: true; bulk: BulkResult };

export function renderHuman(result: DeleteResult, io: IOStreams): void {
  if (result.many) return bulk.renderHuman(result.bulk, io);
  io.stdout.write(`${io.stdoutStyle.green('Deleted')} plant ${io.stdoutStyle.bold(String(result.id))} from ${printable(result.where, Infinity)}\n`);
}

export function renderJson(result: DeleteResult, io: IOStreams): void {
  if (result.many) return bulk.renderJson(result.bulk, io);
  writeJsonDocument(io, { deleted: true, id: result.id });
}

export function exitCode(result: DeleteResult): number {
  return result.many ? bulk.exitCode(result.bulk) : 0;
}
