import { PlantsError } from '../core/errors.js';
import { parseJson, jsonNumberText } from '../core/json.js';
import { parseNewPlant } from '../core/validate.js';
import type { NewPlant } from '../core/schemas.js';

/**
 * The store file format, version 1:
 *
 *   { "plantStore": 1,
 *     "plants": [
 *       {"id": 1, "name": "Fern", "tag": "herb"},
 *       ...
 *     ] }
 *
 * One plant per line, ids as exact JSON integers. The `plantStore` marker is how we know a file is
 * ours: anything else is refused, never overwritten.
 */
export const FORMAT_VERSION = 1;

export function encodeStore(plants: Iterable<NewPlant>): string {
  const lines: string[] = [];
  for (const plant of plants) {
    const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
    lines.push(`    {"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`);
  }
  const body = lines.length === 0 ? '' : `\n${lines.join(',\n')}\n  `;
  return `{\n  "plantStore": ${FORMAT_VERSION},\n  "plants": [${body}]\n}\n`;
}

/** The plants of a store file, keyed by id, in file order. Throws `store_corrupt` for anything not ours. */
export function decodeStore(text: string, path: string): Map<bigint, NewPlant> {
  const corrupt = (why: string) =>
    new PlantsError('store_corrupt', `${path} is not a usable plants store: ${why}; it was left untouched`, {
      hint: 'point --store (or PLANTS_STORE) at another file, or repair or move this one',
    });
  let document: unknown;
  try {
    document = parseJson(text);
  } catch (error) {
    throw corrupt(`not valid JSON (${(error as Error).message})`);
  }
  if (typeof document !== 'object' || document === null || !('plantStore' in document) || !('plants' in document)) {
    throw corrupt('not a plants store file (no "plantStore" marker)');
  }
  const version = jsonNumberText(document.plantStore);
  if (version !== String(FORMAT_VERSION)) throw corrupt(`unsupported format version ${version ?? String(document.plantStore)}`);
  if (!Array.isArray(document.plants)) throw corrupt('"plants" is not an array');
  const plants = new Map<bigint, NewPlant>();
  document.plants.forEach((entry: unknown, index: number) => {
    let plant: NewPlant;
    try {
      plant = parseNewPlant(entry);
    } catch (error) {
      throw corrupt(`plants[${index}]: ${(error as Error).message}`);
    }
    if (plants.has(plant.id)) throw corrupt(`plants[${index}]: id ${plant.id} appears twice`);
    plants.set(plant.id, plant);
  });
  return plants;
}
