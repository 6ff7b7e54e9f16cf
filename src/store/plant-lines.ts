import { parseJson } from '../core/json.js';
import { canonicalPlant, encodePlant } from '../core/plant-line.js';
import type { NewPlant } from '../core/schemas.js';
import { parseNewPlant } from '../core/validate.js';
import { storeCorruptError } from './store-errors.js';

/**
 * A stored plant as one line of JSON, in canonical form: `{"id":1,"name":"Fern","tag":"herb"}`.
 * The store file and the journal hold plants as such lines, and a rewrite joins them back without
 * parsing them again. Each line still passes the same validation as any input.
 */
export interface PlantLine {
  id: bigint;
  line: string;
}

/**
 * Reads one stored plant: a canonical line fast (core/plant-line.ts), any other JSON object (a
 * store edited by hand) with the lossless parser. Both pass the NewPlant schema. `where(index)`
 * names the line in a message, and is called only for a line that is not canonical.
 *
 * Every command that writes a store runs this on each of its lines, on code V8 has not optimised
 * yet: its callers loop by index, and nothing is made per line but the plant. In V8's
 * interpreter, a destructuring or a string built for each of 1,000 lines cost a create --local
 * ~3 ms (README, Performance).
 */
export function decodePlantLine(line: string, path: string, index: number, where: (index: number) => string): PlantLine {
  const plant = canonicalPlant(line);
  return plant === undefined ? decodeAnyPlant(line, path, where(index)) : { id: plant.id, line };
}

function decodeAnyPlant(text: string, path: string, where: string): PlantLine {
  let entry: unknown;
  try {
    entry = parseJson(text);
  } catch {
    throw storeCorruptError(path, `${where} is not JSON`);
  }
  return plantLine(entry, path, where);
}

/** A parsed entry, validated like any input, as a canonical line. */
export function plantLine(entry: unknown, path: string, where: string): PlantLine {
  try {
    const plant = parseNewPlant(entry);
    return { id: plant.id, line: encodePlant(plant) };
  } catch (error) {
    throw storeCorruptError(path, `${where}: ${(error as Error).message}`);
  }
}

/** The plant of a canonical line (one this module produced). */
export function plantOfLine(line: string): NewPlant {
  const plant = canonicalPlant(line);
  if (plant === undefined) throw new Error(`not a canonical plant line: ${line}`);
  return plant;
}
