import { printable } from '../../../core/printable.js';
import type { IOStreams } from '../../context.js';
import { writeJsonDocument } from '../../json-output.js';
import type { NewPlant } from '../../../core/schemas.js';

export interface GetResult {
  plant: NewPlant;
  /** The store file, or the service's base URL. */
  where: string;
}

/** The plant, a field a line, on stdout; its text shown escaped where it holds control characters. */
export function renderHuman({ plant }: GetResult, io: IOStreams): void {
  const field = (name: string, value: string) => `${io.stdoutStyle.dim(name.padEnd(5))}${value}\n`;
  io.stdout.write(field('id', String(plant.id)) + field('name', printable(plant.name, Infinity)) + (plant.tag === undefined ? '' : field('tag', printable(plant.tag, Infinity))));
}

export function renderJson({ plant }: GetResult, io: IOStreams): void {
  writeJsonDocument(io, plant);
}
