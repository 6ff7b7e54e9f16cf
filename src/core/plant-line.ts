import type { NewPlant } from './schemas.js';
import { parseNewPlant } from './validate.js';

/**
 * A NewPlant as one line of JSON in canonical form: `{"id":1,"name":"Fern","tag":"herb"}`, the
 * form the store file and journal hold and that most NDJSON writers produce.
 */
export function encodePlant(plant: NewPlant): string {
  const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
  return `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`;
}

const CANONICAL_START = /^\{"id":(-?[0-9]+),"name":"/;

/**
 * The plant of a line in canonical form, read fast: the native JSON.parse for the strings, the id
 * exactly from the text, and the line must re-encode to itself, so it cannot mean anything else.
 * Undefined for any other line, valid or not: the caller then reads it with the lossless parser,
 * which also says precisely what is wrong. The plant passes the same schema either way.
 */
export function canonicalPlant(line: string): NewPlant | undefined {
  const start = CANONICAL_START.exec(line);
  if (start === null) return undefined;
  try {
    const { name, tag } = JSON.parse(line) as { name: unknown; tag?: unknown };
    const plant = parseNewPlant({ id: BigInt(start[1] as string), name, ...(tag === undefined ? {} : { tag }) });
    return encodePlant(plant) === line ? plant : undefined;
  } catch {
    return undefined;
  }
}
