import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import type { PlantField } from '../../../core/plant-fields.js';
import type { NewPlant } from '../../../core/schemas.js';
import { writePlantDocument } from '../../json-output.js';

export interface CreateResult {
  /** The plant as stored. */
  plant: NewPlant;
  /** The store file, or the service's base URL. */
  where: string;
  /** With --json, only these fields. */
  fields: readonly PlantField[] | undefined;
}

export function renderHuman({ plant, where }: CreateResult, io: IOStreams): void {
  const style = io.stdoutStyle;
  const tag = plant.tag === undefined ? '' : ` tagged "${printable(plant.tag)}"`;
  io.stdout.write(
    `${style.green('Created')} plant ${style.bold(String(plant.id))} "${printable(plant.name)}"${tag} in ` +
      `${printable(where, Infinity)}\n`,
  );
}

export function renderJson({ plant, fields }: CreateResult, io: IOStreams): void {
  writePlantDocument(io, plant, fields);
}
