import { jsonNumberText, parseJson } from '../core/json.js';
import type { NewPlant } from '../core/schemas.js';
import { parseNewPlant } from '../core/validate.js';
import { storeCorruptError } from './store-errors.js';

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
 *
 * Beside it, `<store>.journal` may hold plants added since (see journal.ts): one plant per line.
 */
export const FORMAT_VERSION = 1;

/** One plant as one line of JSON: the store's and the journal's line. */
export function encodePlant(plant: NewPlant): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`;
}

export function encodeStore(plants: Iterable<NewPlant>): string {
  const lines: string[] = [];
  for (const plant of plants) lines.push(`    ${encodePlant(plant)}`);
  const body = lines.length === 0 ? '' : `\n${lines.join(',\n')}\n  `;
  return `{\n  "plantStore": ${FORMAT_VERSION},\n  "plants": [${body}]\n}\n`;
}

/** The plants of a store file, keyed by id, in file order. Throws `store_corrupt` for anything not ours. */
export function decodeStore(text: string, path: string): Map<bigint, NewPlant> {
  let document: unknown;
  try {
    document = parseJson(text);
  } catch (error) {
    throw storeCorruptError(path, `not valid JSON (${(error as Error).message})`);
  }
  if (typeof document !== 'object' || document === null || !('plantStore' in document) || !('plants' in document)) {
    throw storeCorruptError(path, 'not a plants store file (no "plantStore" marker)');
  }
  const version = jsonNumberText(document.plantStore);
  if (version !== String(FORMAT_VERSION)) throw storeCorruptError(path, `unsupported format version ${version ?? String(document.plantStore)}`);
  if (!Array.isArray(document.plants)) throw storeCorruptError(path, '"plants" is not an array');
  const plants = new Map<bigint, NewPlant>();
  document.plants.forEach((entry: unknown, index: number) => {
    const plant = storedPlant(entry, path, `plants[${index}]`);
    if (plants.has(plant.id)) throw storeCorruptError(path, `plants[${index}]: id ${plant.id} appears twice`);
    plants.set(plant.id, plant);
  });
  return plants;
}

/** A plant as stored, checked like any input: a store edited by hand is still validated. */
export function storedPlant(entry: unknown, path: string, where: string): NewPlant {
  try {
    return parseNewPlant(entry);
  } catch (error) {
    throw storeCorruptError(path, `${where}: ${(error as Error).message}`);
  }
}
