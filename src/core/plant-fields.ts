import type { NewPlant } from './schemas.js';

/** The fields of a plant, in the order every document writes them: what `--json id,name` picks from. */
export const PLANT_FIELDS = ['id', 'name', 'tag'] as const;

export type PlantField = (typeof PLANT_FIELDS)[number];

/**
 * The plant with only these fields, in the order of PLANT_FIELDS. A plant without a tag has no
 * `tag`, asked for or not, as in the whole document: the contract's Plant has an optional tag,
 * never a null one, so that what is picked stays a plant `plants import` and the service read.
 */
export function pickFields(plant: NewPlant, fields: readonly PlantField[]): Partial<NewPlant> {
  const picked: Partial<NewPlant> = {};
  if (fields.includes('id')) picked.id = plant.id;
  if (fields.includes('name')) picked.name = plant.name;
  if (fields.includes('tag') && plant.tag !== undefined) picked.tag = plant.tag;
  return picked;
}

/** The plant with only these fields as one line of JSON, ids exact: `{"id":1,"name":"Fern"}`. */
export function encodeFields(plant: NewPlant, fields: readonly PlantField[]): string {
  const parts: string[] = [];
  if (fields.includes('id')) parts.push(`"id":${plant.id}`);
  if (fields.includes('name')) parts.push(`"name":${JSON.stringify(plant.name)}`);
  if (fields.includes('tag') && plant.tag !== undefined) parts.push(`"tag":${JSON.stringify(plant.tag)}`);
  return `{${parts.join(',')}}`;
}
