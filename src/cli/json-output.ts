import { stringifyJson } from '../core/json.js';
import { pickFields, type PlantField } from '../core/plant-fields.js';
import type { NewPlant } from '../core/schemas.js';
import type { IOStreams } from './context.js';

/** Writes a value as the one JSON document on stdout, ids exact (the lossless writer: ids are bigints). */
export function writeJsonDocument(io: IOStreams, value: unknown): void {
  io.stdout.write(`${stringifyJson(value, 2)}\n`);
}

/** A plant as the one JSON document: whole, or only the fields asked for (`--json id,name`). */
export function writePlantDocument(io: IOStreams, plant: NewPlant, fields: readonly PlantField[] | undefined): void {
  writeJsonDocument(io, fields === undefined ? plant : pickFields(plant, fields));
}
