import { printable } from '../../../core/printable.js';
import * as bulk from '../../bulk/render.js';
import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';
import type { BulkResult } from '../../bulk/types.js';

/** The fields of a delete's document (`--json id`). */
export type DeleteField = 'deleted' | 'id';

export type DeleteResult =
  | { many: false; id: bigint; where: string; fields: readonly DeleteField[] | undefined }
  | { many: true; bulk: BulkResult };

export function renderHuman(result: DeleteResult, io: IOStreams): void {
  if (result.many) return bulk.renderHuman(result.bulk, io);
  io.stdout.write(
    `${io.stdoutStyle.green('Deleted')} plant ${io.stdoutStyle.bold(String(result.id))} from ` +
      `${printable(result.where, Infinity)}\n`,
  );
}

export function renderJson(result: DeleteResult, io: IOStreams): void {
  if (result.many) return bulk.renderJson(result.bulk, io);
  const { id, fields = ['deleted', 'id'] } = result;
  const picked: { deleted?: true; id?: bigint } = {};
  if (fields.includes('deleted')) picked.deleted = true;
  if (fields.includes('id')) picked.id = id;
  writeJsonDocument(io, picked);
}

export function exitCode(result: DeleteResult): number {
  return result.many ? bulk.exitCode(result.bulk) : 0;
}
