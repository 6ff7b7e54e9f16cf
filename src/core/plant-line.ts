import { INT64_MAX, INT64_MIN } from './int64.js';
import { isValidText, type NewPlant } from './schemas.js';

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
 * exactly from the text, the NewPlant rules checked directly (isValidText, the int64 bounds), and
 * the line must re-encode to itself, so it cannot mean anything else. Undefined for any other
 * line, valid or not: the caller then reads it with the lossless parser and the schema, which also
 * say precisely what is wrong.
 */
export function canonicalPlant(line: string): NewPlant | undefined {
  const start = CANONICAL_START.exec(line);
  if (start === null) return undefined;
  let parsed: { name?: unknown; tag?: unknown };
  try {
    parsed = JSON.parse(line) as { name?: unknown; tag?: unknown };
  } catch {
    return undefined;
  }
  const id = BigInt(start[1] as string);
  const { name, tag } = parsed;
  if (id < INT64_MIN || id > INT64_MAX || !isValidText(name) || (tag !== undefined && !isValidText(tag))) return undefined;
  const plant: NewPlant = tag === undefined ? { id, name } : { id, name, tag };
  return encodePlant(plant) === line ? plant : undefined;
}
