import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';
import type { NewPlant } from '../../../core/schemas.js';

export interface CreateResult {
  /** The plant as stored. */
  plant: NewPlant;
  /** The store file, or the service's base URL. */
  where: string;
}

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
