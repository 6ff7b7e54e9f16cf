import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import type { CreateResult } from './types.js';

export function renderHuman({ plant, where }: CreateResult, io: IOStreams): void {
  const style = io.stdoutStyle;
  const tag = plant.tag === undefined ? '' : ` tagged "${printable(plant.tag)}"`;
  io.stdout.write(`${style.green('Created')} plant ${style.bold(String(plant.id))} "${printable(plant.name)}"${tag} in ${where}\n`);
}

export function toJson(result: CreateResult): unknown {
  return result.plant;
}
