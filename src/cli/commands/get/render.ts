import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import type { PlantField } from '../../../core/plant-fields.js';
import type { NewPlant } from '../../../core/schemas.js';
import { writePlantDocument } from '../../json-output.js';

export interface GetResult {
  plant: NewPlant;
  /** The store file, or the service's base URL. */
  where: string;
  /** With --json, only these fields. */
  fields: readonly PlantField[] | undefined;
}

/** The plant, a field a line, on stdout; its text shown escaped where it holds control characters. */
export function renderHuman({ plant }: GetResult, io: IOStreams): void {
  const field = (name: string, value: string) => `${io.stdoutStyle.dim(name.padEnd(5))}${value}\n`;
  io.stdout.write(
    field('id', String(plant.id)) +
      field('name', printable(plant.name, Infinity)) +
      (plant.tag === undefined ? '' : field('tag', printable(plant.tag, Infinity))),
  );
}

export function renderJson({ plant, fields }: GetResult, io: IOStreams): void {
  writePlantDocument(io, plant, fields);
}
