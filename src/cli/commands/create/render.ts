import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import type { CreateResult } from './types.js';
import { writeJsonDocument } from '../../json-output.js';

export function renderHuman({ plant, where }: CreateResult, io: IOStreams): void {
  const style = io.stdoutStyle;
  const tag = plant.tag === undefined ? '' : ` tagged "${printable(plant.tag)}"`;
  io.stdout.write(`${style.green('Created')} plant ${style.bold(String(plant.id))} "${printable(plant.name)}"${tag} in ${printable(where, Infinity)}\n`);
}

function toJson(result: CreateResult): unknown {
  return result.plant;
}

export function renderJson(result: CreateResult, io: IOStreams): void {
  writeJsonDocument(io, toJson(result));
}
