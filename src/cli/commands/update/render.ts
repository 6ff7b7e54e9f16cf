import type { PlantField } from '../../../core/plant-fields.js';
import { printable } from '../../../core/printable.js';
import type { NewPlant } from '../../../core/schemas.js';
import type { IOStreams } from '../../context.js';
import { writePlantDocument } from '../../json-output.js';

export interface UpdateResult {
  /** The plant as it now is. */
  plant: NewPlant;
  /** false where it was so already: nothing was written. */
  changed: boolean;
  /** The store file, or the service's base URL. */
  where: string;
  /** With --json, only these fields. */
  fields: readonly PlantField[] | undefined;
}

export function renderHuman({ plant, changed, where }: UpdateResult, io: IOStreams): void {
  const style = io.stdoutStyle;
  const tag = plant.tag === undefined ? ', no tag' : ` tagged "${printable(plant.tag)}"`;
  const what = changed ? `${style.green('Updated')} plant` : 'Unchanged: plant';
  io.stdout.write(
    `${what} ${style.bold(String(plant.id))} "${printable(plant.name)}"${tag} in ${printable(where, Infinity)}\n`,
  );
}

/** The plant as it now is, as create and get print it. */
export function renderJson({ plant, fields }: UpdateResult, io: IOStreams): void {
  writePlantDocument(io, plant, fields);
}
